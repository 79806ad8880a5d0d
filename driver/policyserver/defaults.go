package policyserver

import (
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// defaulted returns a copy of obj, a Validating- or
// MutatingAdmissionPolicy, their bindings or a namespace, with the
// defaults a kube-apiserver gives the admission-policy objects it stores.
// The in-memory store sets none, and the plugins read a missing selector
// as one that matches nothing. The defaults are those of Kubernetes'
// pkg/apis/admissionregistration/v1
// (SetDefaults_ValidatingAdmissionPolicySpec,
// SetDefaults_MutatingAdmissionPolicySpec, SetDefaults_MatchResources,
// SetDefaults_Rule), which no module this program builds with holds.
func defaulted(obj runtime.Object) (runtime.Object, error) {
	switch o := obj.(type) {
	case *admissionregistrationv1.ValidatingAdmissionPolicy:
		out := o.DeepCopy()
		if out.Spec.FailurePolicy == nil {
			out.Spec.FailurePolicy = ptrTo(admissionregistrationv1.Fail)
		}
		defaultMatch(out.Spec.MatchConstraints)
		return out, nil
	case *admissionregistrationv1.ValidatingAdmissionPolicyBinding:
		out := o.DeepCopy()
		defaultMatch(out.Spec.MatchResources)
		return out, nil
	case *admissionregistrationv1.MutatingAdmissionPolicy:
		out := o.DeepCopy()
		if out.Spec.FailurePolicy == nil {
			out.Spec.FailurePolicy = ptrTo(admissionregistrationv1.Fail)
		}
		defaultMatch(out.Spec.MatchConstraints)
		return out, nil
	case *admissionregistrationv1.MutatingAdmissionPolicyBinding:
		out := o.DeepCopy()
		defaultMatch(out.Spec.MatchResources)
		return out, nil
	case *corev1.Namespace:
		return o.DeepCopy(), nil
	}
	return nil, fmt.Errorf("%T: the admission plugins read Validating- and MutatingAdmissionPolicies, their bindings and namespaces only", obj)
}

func defaultMatch(m *admissionregistrationv1.MatchResources) {
	if m == nil {
		return
	}
	if m.MatchPolicy == nil {
		m.MatchPolicy = ptrTo(admissionregistrationv1.Equivalent)
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	for _, rules := range [][]admissionregistrationv1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil {
				rules[i].Scope = ptrTo(admissionregistrationv1.AllScopes)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
