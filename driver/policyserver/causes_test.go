package policyserver

import (
	"errors"
	"reflect"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/verify"
)

// TestPolicyCauses checks how the details of a refused update are read:
// a rule's field error, a policy's denial and a policy's validation that
// failed to evaluate, which verify must count as such.
func TestPolicyCauses(t *testing.T) {
	invalid := func(causes ...metav1.StatusCause) error {
		return &apierrors.StatusError{ErrStatus: metav1.Status{Reason: metav1.StatusReasonInvalid, Details: &metav1.StatusDetails{Causes: causes}}}
	}
	denial := "ValidatingAdmissionPolicy 'p' with binding 'p' denied request: spec.a: spec.a is immutable"
	failed := "ValidatingAdmissionPolicy 'p' with binding 'p' denied request: expression 'x' resulted in error: no such key: a"
	for _, c := range []struct {
		err  error
		want []string
		ok   bool
	}{
		{err: invalid(metav1.StatusCause{Field: "spec.b", Message: "Invalid value: b"}, metav1.StatusCause{Field: "spec.a", Message: "Invalid value: a"}), want: []string{"spec.a: Invalid value: a", "spec.b: Invalid value: b"}, ok: true},
		{err: invalid(metav1.StatusCause{Message: denial}), want: []string{denial}, ok: true},
		{err: invalid(metav1.StatusCause{Message: failed}), want: []string{verify.PolicyErrorMarker + failed}, ok: true},
		{err: invalid(), ok: true},
		{err: apierrors.NewForbidden(schema.GroupResource{Resource: "widgets"}, "x", errors.New("no")), ok: false},
		{err: errors.New("connection refused"), ok: false},
	} {
		got, ok := policyCauses(c.err)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("policyCauses(%v) = %q, %v; want %q, %v", c.err, got, ok, c.want, c.ok)
		}
	}
}

// TestRetargeted checks the copies a policy judge installs: named for the
// judged group, matching it instead of the CRD's, other groups kept, and
// leaving the old objects' writer alone.
func TestRetargeted(t *testing.T) {
	p := policy.ValidatingPolicy{
		Version: "v1",
		Policy: &admissionregistrationv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "w-v1-mut2cel-validate"},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{Rule: admissionregistrationv1.Rule{APIGroups: []string{"example.com", "other.com"}}}}}},
			},
		},
		Binding: &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "w-v1-mut2cel-validate"},
			Spec:       admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: "w-v1-mut2cel-validate"},
		},
	}
	objs := retargeted(p, "example.com", "j7.example.com")
	pol := objs[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	b := objs[1].(*admissionregistrationv1.ValidatingAdmissionPolicyBinding)
	if pol.Name != "w-v1-mut2cel-validate-j7" || b.Name != pol.Name || b.Spec.PolicyName != pol.Name {
		t.Errorf("names: policy %q, binding %q for %q; want all w-v1-mut2cel-validate-j7", pol.Name, b.Name, b.Spec.PolicyName)
	}
	if got := pol.Spec.MatchConstraints.ResourceRules[0].APIGroups; !reflect.DeepEqual(got, []string{"j7.example.com", "other.com"}) {
		t.Errorf("API groups %q, want [j7.example.com other.com]", got)
	}
	want := []admissionregistrationv1.MatchCondition{{Name: "mut2cel-judge-writes-old", Expression: `request.userInfo.username != "mut2cel:old-writer"`}}
	if !reflect.DeepEqual(pol.Spec.MatchConditions, want) {
		t.Errorf("match conditions %v, want %v", pol.Spec.MatchConditions, want)
	}
	if p.Policy.Name != "w-v1-mut2cel-validate" || p.Policy.Spec.MatchConstraints.ResourceRules[0].APIGroups[0] != "example.com" || p.Policy.Spec.MatchConditions != nil {
		t.Error("retargeted changed the policy it copies")
	}
}
