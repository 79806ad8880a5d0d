package apiserver

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
	extensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/util/openapi"
)

// newServer configures an apiextensions-apiserver the way its command does,
// from its own flags, as a server that stands alone: it serves on ln, with
// a self-signed certificate made in memory, stores in etcd, and talks to no
// kube-apiserver. The flags are those the apiextensions-apiserver's
// integration tests start it with. configure, when not nil, may change the
// configuration they give (Options.Configure).
func newServer(dir, etcd string, ln net.Listener, log io.Writer, configure func(*genericapiserver.RecommendedConfig) error) (*extensionsapiserver.CustomResourceDefinitions, error) {
	kubeconfig, err := writeKubeconfig(dir)
	if err != nil {
		return nil, err
	}
	o := options.NewCustomResourceDefinitionsServerOptions(log, log)
	fs := pflag.NewFlagSet("apiextensions-apiserver", pflag.ContinueOnError)
	o.AddFlags(fs)
	err = fs.Parse([]string{
		"--etcd-servers", etcd,
		// Authentication and authorization would ask a kube-apiserver about
		// clients other than the loopback one, which is always allowed.
		"--authentication-skip-lookup",
		"--authentication-kubeconfig", kubeconfig,
		"--authorization-kubeconfig", kubeconfig,
		"--kubeconfig", kubeconfig,
		// These filters and admission plugins read objects (flow schemas,
		// namespaces, webhooks, policies) that only a kube-apiserver serves.
		"--enable-priority-and-fairness=false",
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
	})
	if err != nil {
		return nil, err
	}
	serving := o.RecommendedOptions.SecureServing
	serving.Listener, serving.BindPort = ln, ln.Addr().(*net.TCPAddr).Port
	serving.ExternalAddress = ln.Addr().(*net.TCPAddr).IP
	// No directory: the certificate is generated in memory, not written to
	// the default directory under the working directory.
	serving.ServerCert.CertDirectory = ""
	if err := o.ServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return nil, err
	}
	if err := o.Complete(); err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	config, err := o.Config()
	if err != nil {
		return nil, err
	}
	if configure != nil {
		if err := configure(config.GenericConfig); err != nil {
			return nil, err
		}
	}
	// The kube-apiserver that embeds this server publishes OpenAPI v2 too.
	defs := openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
	config.GenericConfig.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(defs, openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme))
	server, err := config.Complete().New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return nil, fmt.Errorf("creating the apiextensions-apiserver: %w", err)
	}
	return server, nil
}

// unreachable is the address of the kube-apiserver the configuration
// names: nothing serves the reserved port 1, so a client there fails at
// once.
const unreachable = "https://127.0.0.1:1"

// writeKubeconfig writes a client configuration for a kube-apiserver that
// does not exist. The server needs one to start; it only uses it for
// clients it never sees and for services it never resolves (webhooks).
func writeKubeconfig(dir string) (string, error) {
	path := filepath.Join(dir, "kubeconfig")
	data := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: none
  cluster: {server: %q}
users:
- name: none
contexts:
- name: none
  context: {cluster: none, user: none}
current-context: none
`, unreachable)
	return path, os.WriteFile(path, []byte(data), 0o600)
}
