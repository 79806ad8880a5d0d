package policyserver

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	genericapiserver "k8s.io/apiserver/pkg/server"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// policyAdmission is the apiserver's ValidatingAdmissionPolicy admission
// plugin, as a kube-apiserver runs it, added to the admission chain of
// the apiextensions-apiserver. The plugin reads its policies, bindings and
// namespaces through informers; this server serves none of them, so they
// come from store, an in-memory clientset that Server.InstallPolicies
// writes to. Everything else the plugin asks for is the server's own: its
// authorizer, its discovery (the REST mapper, groupMapper, which maps the
// installed CRDs) and a dynamic client on its loopback connection. The
// plugin needs the last two only for policies with parameters.
type policyAdmission struct {
	store  *fake.Clientset
	plugin *validating.Plugin
	mapper meta.RESTMapper // the plugin's
}

// addPolicyAdmission builds the plugin with the apiserver's own plugin
// initializers, given the in-memory store in place of a kube-apiserver
// client, checks its initialization as the admission chain does, and
// appends it to config's admission chain, which runs it after the
// chain's own plugins. objects seed the store.
func addPolicyAdmission(config *genericapiserver.RecommendedConfig, objects []runtime.Object) (*policyAdmission, error) {
	seed := make([]runtime.Object, 0, len(objects))
	for _, o := range objects {
		d, err := defaulted(o)
		if err != nil {
			return nil, err
		}
		seed = append(seed, d)
	}
	store := fake.NewClientset(seed...)
	factory := informers.NewSharedInformerFactory(store, 0)
	loopback := config.LoopbackClientConfig
	dyn, err := dynamic.NewForConfig(loopback)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(loopback)
	if err != nil {
		return nil, err
	}
	mapper := groupMapper{disc: disc}
	plugin, err := validating.NewPlugin(nil)
	if err != nil {
		return nil, err
	}
	features := config.FeatureGate
	if features == nil {
		features = utilfeature.DefaultFeatureGate
	}
	stop := config.DrainedNotify()
	admission.PluginInitializers{
		initializer.NewAPIServerIDInitializer(config.APIServerID),
		initializer.New(store, dyn, factory, config.Authorization.Authorizer, features, config.EffectiveVersion, stop, mapper),
	}.Initialize(plugin)
	if err := admission.ValidateInitialization(plugin); err != nil {
		return nil, fmt.Errorf("the %s admission plugin: %w", validating.PluginName, err)
	}
	// A kube-apiserver starts its informers in a post-start hook; these
	// read memory, and may start at once.
	factory.Start(stop)
	if config.AdmissionControl == nil {
		config.AdmissionControl = plugin
	} else {
		config.AdmissionControl = admission.NewChainHandler(config.AdmissionControl, plugin)
	}
	return &policyAdmission{store: store, plugin: plugin, mapper: mapper}, nil
}
