package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mut2cel/mut2cel/frontend/cluster"
	"github.com/mut2cel/mut2cel/manifest"
)

// installed are the manifests installed in the test server, as a user
// installs the output of translate: the translated examples, and the
// kubebuilder example's CRD, with mut2cel's annotations and rules.
var installed = []string{
	"../../examples/translated/certificaterequest.yaml",
	"../../examples/translated/gatewayclass.yaml",
	"../../examples/translated/jobset.yaml",
	"../../examples/translated/nodepool.yaml",
	"../../examples/translated/ports.yaml",
	"../../examples/translated/snapshot.yaml",
	"../../examples/translated/unions.yaml",
	"../../examples/kubebuilder/config/crd/bases/storage.example.com_volumes.yaml",
}

// appliedManifest is installed as kubectl apply installs it, with a copy
// of itself in an annotation.
const appliedManifest = "../../examples/translated/gatewayclass.yaml"

// readManifest decodes the one document of a manifest file as the
// manifest package reads it for every command.
func readManifest(path string) (map[string]interface{}, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := manifest.Parse(filepath.Base(path), data)
	if err != nil {
		return nil, err
	}
	if len(f.Docs) != 1 {
		return nil, fmt.Errorf("%s: %d documents, want 1", path, len(f.Docs))
	}
	return f.Docs[0].Value(), nil
}

// installExamples creates the CRDs of installed and waits until each is
// established and its group version's OpenAPI document has its kind: the
// server publishes it a moment after, and the reader does not wait.
func installExamples(ctx context.Context, config *rest.Config) error {
	config = rest.CopyConfig(config)
	config.UserAgent = "cluster-test-setup"
	client, err := clientset.NewForConfig(config)
	if err != nil {
		return err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, path := range installed {
		doc, err := readManifest(path)
		if err != nil {
			return err
		}
		data, _ := json.Marshal(doc)
		if path == appliedManifest {
			// As kubectl apply leaves it: the manifest, in an annotation.
			meta := doc["metadata"].(map[string]interface{})
			annotations, _ := meta["annotations"].(map[string]interface{})
			if annotations == nil {
				annotations = map[string]interface{}{}
				meta["annotations"] = annotations
			}
			annotations["kubectl.kubernetes.io/last-applied-configuration"] = string(data) + "\n"
			data, _ = json.Marshal(doc)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := json.Unmarshal(data, crd); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		crds = append(crds, crd)
	}
	for _, crd := range crds {
		if err := waitPublished(ctx, client, crd); err != nil {
			return fmt.Errorf("%s: %v", crd.Name, err)
		}
	}
	return nil
}

func waitPublished(ctx context.Context, client *clientset.Clientset, crd *apiextensionsv1.CustomResourceDefinition) error {
	path := "/openapi/v3/apis/" + crd.Spec.Group + "/" + crd.Spec.Versions[0].Name
	kind := fmt.Sprintf(`"kind":%q`, crd.Spec.Names.Kind)
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		data, err := client.Discovery().RESTClient().Get().AbsPath(path).Do(ctx).Raw()
		return err == nil && strings.Contains(string(data), kind), nil
	})
}

// writeKubeconfig writes a kubeconfig whose context name reaches the
// server of config with its credentials.
func writeKubeconfig(path, name string, config *rest.Config) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters[name] = &clientcmdapi.Cluster{
		Server:                   config.Host,
		CertificateAuthorityData: config.CAData,
		TLSServerName:            config.ServerName,
	}
	kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: config.BearerToken}
	kc.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	kc.CurrentContext = name
	return clientcmd.WriteToFile(*kc, path)
}

// readAll reads every CRD of the cluster, for the error.
func readAll(r *cluster.Reader) error {
	_, err := r.CRDs(context.Background(), cluster.Selection{})
	return err
}
