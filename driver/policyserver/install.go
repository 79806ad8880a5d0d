package policyserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// InstallPolicies adds Validating- and MutatingAdmissionPolicies, their
// bindings and namespaces to what the admission plugins read, with the
// defaults a kube-apiserver gives them, and returns once the plugins
// enforce them. A plugin recompiles its policies about once a second; to
// know when it has, a probe policy is added after objs, and a request the
// probe acts on is sent until it does: a plugin reads policies and
// bindings in the order they were added, and compiles all it has read at
// once. The mutating plugin is probed when objs hold a mutating policy
// or binding; the validating one always, since namespaces are read by an
// informer both share.
func (s *Server) InstallPolicies(ctx context.Context, objs ...runtime.Object) error {
	mutating := false
	for _, o := range objs {
		if err := s.admission.add(ctx, o); err != nil {
			return err
		}
		switch o.(type) {
		case *admissionregistrationv1.MutatingAdmissionPolicy, *admissionregistrationv1.MutatingAdmissionPolicyBinding:
			mutating = true
		}
	}
	return s.waitEnforced(ctx, mutating)
}

func (p *policyAdmission) add(ctx context.Context, obj runtime.Object) error {
	d, err := defaulted(obj)
	if err != nil {
		return err
	}
	r := p.store.AdmissionregistrationV1()
	switch o := d.(type) {
	case *admissionregistrationv1.ValidatingAdmissionPolicy:
		_, err = r.ValidatingAdmissionPolicies().Create(ctx, o, metav1.CreateOptions{})
	case *admissionregistrationv1.ValidatingAdmissionPolicyBinding:
		_, err = r.ValidatingAdmissionPolicyBindings().Create(ctx, o, metav1.CreateOptions{})
	case *admissionregistrationv1.MutatingAdmissionPolicy:
		_, err = r.MutatingAdmissionPolicies().Create(ctx, o, metav1.CreateOptions{})
	case *admissionregistrationv1.MutatingAdmissionPolicyBinding:
		_, err = r.MutatingAdmissionPolicyBindings().Create(ctx, o, metav1.CreateOptions{})
	case *corev1.Namespace:
		_, err = p.store.CoreV1().Namespaces().Create(ctx, o, metav1.CreateOptions{})
	}
	return err
}

// probeTimeout bounds the wait for the plugins to enforce new policies,
// which they compile about once a second.
const probeTimeout = time.Minute

// probeGroup is the API group of the CRDs the probes of waitEnforced
// create as dry runs: never stored, and named by no judge.
const probeGroup = "probe.mut2cel.test"

// probeLabel is the label the mutating probe adds to its CRD.
const probeLabel = "mut2cel.io/probe"

// waitEnforced adds a probe policy that denies the creation of one CRD of
// its own, and, with mutating, one that labels the creation of another;
// it sends those creations as dry runs until the probes act on them.
func (s *Server) waitEnforced(ctx context.Context, mutating bool) error {
	client, err := clientset.NewForConfig(s.Config)
	if err != nil {
		return err
	}
	crds := client.ApiextensionsV1().CustomResourceDefinitions()
	n := s.probes.Add(1)
	name := fmt.Sprintf("mut2cel-probe-%d", n)
	denied := fmt.Sprintf("ValidatingAdmissionPolicy '%s'", name)
	var probes []func(context.Context) (bool, error)
	if mutating {
		crd := probeCRD(fmt.Sprintf("mprobe%d.%s", n, probeGroup), fmt.Sprintf("mprobe%d", n))
		if err := s.addAll(ctx, mutatingProbe(name, crd.Name)...); err != nil {
			return err
		}
		probes = append(probes, func(ctx context.Context) (bool, error) {
			got, err := crds.Create(ctx, crd, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err != nil {
				return false, fmt.Errorf("probing the %s plugin: %w", "MutatingAdmissionPolicy", err)
			}
			return got.Labels[probeLabel] == name, nil
		})
	}
	crd := probeCRD(fmt.Sprintf("probe%d.%s", n, probeGroup), fmt.Sprintf("probe%d", n))
	if err := s.addAll(ctx, validatingProbe(name, crd.Name)...); err != nil {
		return err
	}
	probes = append(probes, func(ctx context.Context) (bool, error) {
		_, err := crds.Create(ctx, crd, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil {
			return false, nil
		}
		if strings.Contains(err.Error(), denied) {
			return true, nil
		}
		return false, fmt.Errorf("probing the %s plugin: %w", "ValidatingAdmissionPolicy", err)
	})
	if err := poll(ctx, probes); err != nil {
		return fmt.Errorf("the admission plugins do not enforce the new policies after %s: %w", probeTimeout, err)
	}
	return nil
}

// poll calls every probe until each has answered true once.
func poll(ctx context.Context, probes []func(context.Context) (bool, error)) error {
	done := make([]bool, len(probes))
	return wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, probeTimeout, true, func(ctx context.Context) (bool, error) {
		all := true
		for i, p := range probes {
			if done[i] {
				continue
			}
			ok, err := p(ctx)
			if err != nil {
				return false, err
			}
			done[i] = ok
			all = all && ok
		}
		return all, nil
	})
}

func (s *Server) addAll(ctx context.Context, objs ...runtime.Object) error {
	for _, o := range objs {
		if err := s.admission.add(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// probeMatch matches the creation of the CRD named crdName.
func probeMatch(crdName string) (*admissionregistrationv1.MatchResources, []admissionregistrationv1.MatchCondition) {
	return &admissionregistrationv1.MatchResources{
		ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
			RuleWithOperations: admissionregistrationv1.RuleWithOperations{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule: admissionregistrationv1.Rule{
					APIGroups:   []string{apiextensionsv1.GroupName},
					APIVersions: []string{"v1"},
					Resources:   []string{"customresourcedefinitions"},
				},
			},
		}},
	}, []admissionregistrationv1.MatchCondition{{Name: "probe", Expression: fmt.Sprintf("object.metadata.name == %q", crdName)}}
}

// validatingProbe is a policy and its binding that deny the creation of
// the CRD crdName.
func validatingProbe(name, crdName string) []runtime.Object {
	match, conditions := probeMatch(crdName)
	return []runtime.Object{&admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: match, MatchConditions: conditions,
			Validations: []admissionregistrationv1.Validation{{Expression: "false", Message: "probe"}},
		},
	}, &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}}
}

// mutatingProbe is a policy and its binding that label the creation of
// the CRD crdName with probeLabel: name.
func mutatingProbe(name, crdName string) []runtime.Object {
	match, conditions := probeMatch(crdName)
	patch := fmt.Sprintf("[JSONPatch{op: 'add', path: '/metadata/labels', value: {%q: %q}}]", probeLabel, name)
	return []runtime.Object{&admissionregistrationv1.MutatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
			MatchConstraints: match, MatchConditions: conditions,
			Mutations: []admissionregistrationv1.Mutation{{
				PatchType: admissionregistrationv1.PatchTypeJSONPatch,
				JSONPatch: &admissionregistrationv1.JSONPatch{Expression: patch},
			}},
			ReinvocationPolicy: admissionregistrationv1.NeverReinvocationPolicy,
		},
	}, &admissionregistrationv1.MutatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: name},
	}}
}

// probeCRD is the CRD name, plural.<probeGroup>, of a probe.
func probeCRD(name, plural string) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: probeGroup,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Singular: plural, Kind: "Probe", ListKind: "ProbeList"},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}},
			}},
		},
	}
}
