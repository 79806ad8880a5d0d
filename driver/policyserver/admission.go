package policyserver

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/features"
	genericapiserver "k8s.io/apiserver/pkg/server"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// policyAdmission is the apiserver's MutatingAdmissionPolicy and
// ValidatingAdmissionPolicy admission plugins, as a kube-apiserver runs
// them, added to the admission chain of the apiextensions-apiserver. The
// plugins read their policies, bindings and namespaces through informers;
// this server serves none of them, so they come from store, an in-memory
// clientset that Server.InstallPolicies writes to. Everything else the
// plugins ask for is the server's own: its authorizer, its discovery (the
// REST mapper, groupMapper, which maps the installed CRDs, and the OpenAPI
// v3 documents the mutating plugin builds its type converters from) and a
// dynamic client on its loopback connection. The plugins need the dynamic
// client only for policies with parameters.
type policyAdmission struct {
	store    *fake.Clientset
	plugin   *validating.Plugin
	mutating *mutating.Plugin
	mapper   meta.RESTMapper // the plugins'
}

// storeClient is the clientset the plugins are given: the in-memory store,
// whose discovery client-go's fake cannot serve (its OpenAPIV3 panics),
// with the server's own discovery in its place.
type storeClient struct {
	*fake.Clientset
	disc *discovery.DiscoveryClient
}

func (c storeClient) Discovery() discovery.DiscoveryInterfaces { return c.disc }

// addPolicyAdmission builds the plugins with the apiserver's own plugin
// initializers, given the in-memory store in place of a kube-apiserver
// client, checks their initialization as the admission chain does, and
// appends them to config's admission chain, which runs them after the
// chain's own plugins: the mutating plugin, then the validating one, in a
// kube-apiserver's order (a chain runs every plugin's Admit before any
// Validate). objects seed the store.
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
	loopback := config.LoopbackClientConfig
	dyn, err := dynamic.NewForConfig(loopback)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(loopback)
	if err != nil {
		return nil, err
	}
	p := &policyAdmission{store: store, mapper: groupMapper{disc: disc}}
	if p.mutating, err = mutating.NewPlugin(nil); err != nil {
		return nil, err
	}
	if p.plugin, err = validating.NewPlugin(nil); err != nil {
		return nil, err
	}
	factory := informers.NewSharedInformerFactory(store, 0)
	if err := p.initialize(config, storeClient{store, disc}, dyn, factory); err != nil {
		return nil, err
	}
	// A kube-apiserver starts its informers in a post-start hook; these
	// read memory, and may start at once.
	factory.Start(config.DrainedNotify())
	chain := admission.NewChainHandler(p.mutating, p.plugin)
	if config.AdmissionControl != nil {
		chain = admission.NewChainHandler(config.AdmissionControl, p.mutating, p.plugin)
	}
	config.AdmissionControl = chain
	return p, nil
}

// initialize gives both plugins what they ask for, as the admission chain
// of a kube-apiserver does, and checks that they have it. The mutating
// plugin turns itself off, without an error, when its feature gate
// (MutatingAdmissionPolicy, GA and on by default from 1.36) is off: that
// is an error here.
func (p *policyAdmission) initialize(config *genericapiserver.RecommendedConfig, client storeClient, dyn dynamic.Interface, factory informers.SharedInformerFactory) error {
	gates := config.FeatureGate
	if gates == nil {
		gates = utilfeature.DefaultFeatureGate
	}
	if !gates.Enabled(features.MutatingAdmissionPolicy) {
		return fmt.Errorf("the %s admission plugin needs the feature gate %s, which this server has off", mutating.PluginName, features.MutatingAdmissionPolicy)
	}
	inits := admission.PluginInitializers{
		initializer.NewAPIServerIDInitializer(config.APIServerID),
		initializer.New(client, dyn, factory, config.Authorization.Authorizer, gates, config.EffectiveVersion, config.DrainedNotify(), p.mapper),
	}
	for _, plugin := range []struct {
		name string
		admission.Interface
	}{{mutating.PluginName, p.mutating}, {validating.PluginName, p.plugin}} {
		inits.Initialize(plugin.Interface)
		if err := admission.ValidateInitialization(plugin.Interface); err != nil {
			return fmt.Errorf("the %s admission plugin: %w", plugin.name, err)
		}
	}
	return nil
}
