package policyserver

import (
	"reflect"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestDefaulted checks the defaults given to what the plugin reads: those
// a kube-apiserver gives, and only where a field is unset.
func TestDefaulted(t *testing.T) {
	fail, ignore := admissionregistrationv1.Fail, admissionregistrationv1.Ignore
	exact, equivalent := admissionregistrationv1.Exact, admissionregistrationv1.Equivalent
	all, namespaced := admissionregistrationv1.AllScopes, admissionregistrationv1.NamespacedScope
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
	rule := func(scope *admissionregistrationv1.ScopeType) []admissionregistrationv1.NamedRuleWithOperations {
		return []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{Rule: admissionregistrationv1.Rule{Scope: scope}}}}
	}
	vap := func(spec admissionregistrationv1.ValidatingAdmissionPolicySpec) *admissionregistrationv1.ValidatingAdmissionPolicy {
		return &admissionregistrationv1.ValidatingAdmissionPolicy{Spec: spec}
	}
	for _, c := range []struct {
		what    string
		in, out runtime.Object
	}{
		{
			what: "an empty policy",
			in:   vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{}),
			out:  vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{FailurePolicy: &fail}),
		},
		{
			what: "a policy's match constraints",
			in:   vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: rule(nil), ExcludeResourceRules: rule(nil)}}),
			out: vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{FailurePolicy: &fail, MatchConstraints: &admissionregistrationv1.MatchResources{
				NamespaceSelector: &metav1.LabelSelector{}, ObjectSelector: &metav1.LabelSelector{}, MatchPolicy: &equivalent,
				ResourceRules: rule(&all), ExcludeResourceRules: rule(&all),
			}}),
		},
		{
			what: "a policy whose fields are set",
			in: vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{FailurePolicy: &ignore, MatchConstraints: &admissionregistrationv1.MatchResources{
				NamespaceSelector: selector, ObjectSelector: selector, MatchPolicy: &exact, ResourceRules: rule(&namespaced),
			}}),
			out: vap(admissionregistrationv1.ValidatingAdmissionPolicySpec{FailurePolicy: &ignore, MatchConstraints: &admissionregistrationv1.MatchResources{
				NamespaceSelector: selector, ObjectSelector: selector, MatchPolicy: &exact, ResourceRules: rule(&namespaced),
			}}),
		},
		{
			what: "a binding without match resources",
			in:   &admissionregistrationv1.ValidatingAdmissionPolicyBinding{},
			out:  &admissionregistrationv1.ValidatingAdmissionPolicyBinding{},
		},
		{
			what: "a binding's match resources",
			in:   &admissionregistrationv1.ValidatingAdmissionPolicyBinding{Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{MatchResources: &admissionregistrationv1.MatchResources{NamespaceSelector: selector}}},
			out: &admissionregistrationv1.ValidatingAdmissionPolicyBinding{Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{MatchResources: &admissionregistrationv1.MatchResources{
				NamespaceSelector: selector, ObjectSelector: &metav1.LabelSelector{}, MatchPolicy: &equivalent,
			}}},
		},
		{
			what: "a mutating policy's match constraints",
			in: &admissionregistrationv1.MutatingAdmissionPolicy{Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
				MatchConstraints:   &admissionregistrationv1.MatchResources{MatchPolicy: &exact, ResourceRules: rule(nil)},
				ReinvocationPolicy: admissionregistrationv1.IfNeededReinvocationPolicy,
			}},
			out: &admissionregistrationv1.MutatingAdmissionPolicy{Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
				FailurePolicy: &fail, MatchConstraints: &admissionregistrationv1.MatchResources{
					NamespaceSelector: &metav1.LabelSelector{}, ObjectSelector: &metav1.LabelSelector{}, MatchPolicy: &exact, ResourceRules: rule(&all),
				},
				ReinvocationPolicy: admissionregistrationv1.IfNeededReinvocationPolicy,
			}},
		},
		{
			what: "a mutating policy's binding",
			in:   &admissionregistrationv1.MutatingAdmissionPolicyBinding{Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{MatchResources: &admissionregistrationv1.MatchResources{}}},
			out: &admissionregistrationv1.MutatingAdmissionPolicyBinding{Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{MatchResources: &admissionregistrationv1.MatchResources{
				NamespaceSelector: &metav1.LabelSelector{}, ObjectSelector: &metav1.LabelSelector{}, MatchPolicy: &equivalent,
			}}},
		},
		{what: "a namespace", in: &corev1.Namespace{}, out: &corev1.Namespace{}},
	} {
		in := c.in.DeepCopyObject()
		got, err := defaulted(c.in)
		if err != nil || !reflect.DeepEqual(got, c.out) {
			t.Errorf("%s: defaulted = %#v, %v; want %#v", c.what, got, err, c.out)
		}
		if !reflect.DeepEqual(in, c.in) {
			t.Errorf("%s: defaulted changed its argument", c.what)
		}
	}
	if _, err := defaulted(&corev1.ConfigMap{}); err == nil {
		t.Error("defaulted(ConfigMap) = nil error, want a refusal")
	}
}
