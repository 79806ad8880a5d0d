package policyserver

import (
	"errors"
	"io"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/mut2cel/mut2cel/driver/apiserver"
)

// Options configure Start.
type Options struct {
	// Log is apiserver.Options.Log.
	Log io.Writer
	// Objects are the Validating- and MutatingAdmissionPolicies, their
	// bindings and namespaces the plugins read from the start. The namespace the
	// judges write in (apiserver.Namespace) exists unless Objects replace
	// it, to give it the labels a binding's namespaceSelector reads.
	Objects []runtime.Object
}

// Server is an apiserver.Server whose admission chain runs the
// MutatingAdmissionPolicy and ValidatingAdmissionPolicy plugins.
type Server struct {
	*apiserver.Server
	admission *policyAdmission
	probes    atomic.Int64 // numbers the probes of InstallPolicies
}

// Start starts the apiserver with the plugins, and returns once they have
// read and compiled opts.Objects: until then they refuse every request.
func Start(opts Options) (*Server, error) {
	s := &Server{}
	configure := func(c *genericapiserver.RecommendedConfig) error {
		var err error
		s.admission, err = addPolicyAdmission(c, withNamespace(opts.Objects))
		return err
	}
	srv, err := apiserver.Start(apiserver.Options{Log: opts.Log, Configure: configure})
	if err != nil {
		return nil, err
	}
	s.Server = srv
	if !s.admission.mutating.WaitForReady() || !s.admission.plugin.WaitForReady() {
		srv.Stop()
		return nil, errors.New("the admission-policy plugins did not get ready")
	}
	return s, nil
}

// withNamespace returns objects with the namespace the judges write in,
// unless they hold it.
func withNamespace(objects []runtime.Object) []runtime.Object {
	for _, o := range objects {
		if ns, ok := o.(*corev1.Namespace); ok && ns.Name == apiserver.Namespace {
			return objects
		}
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: apiserver.Namespace}}
	return append(append([]runtime.Object(nil), objects...), ns)
}
