package policyserver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/apiserver"
	"github.com/mut2cel/mut2cel/verify"
)

// oldWriter is the user a policy judge creates old objects as. The
// judge's copies of the policies leave its requests alone, so that an old
// object a policy would refuse to create (a broken union stored before the
// policy existed) can be updated, as policyjudge.PolicyJudge, which judges the
// update alone, assumes. Its group is the one the server lets do
// anything.
var oldWriter = rest.ImpersonationConfig{UserName: "mut2cel:old-writer", Groups: []string{"system:masters"}}

// NewPolicyJudge returns an Options.NewJudge of verify.Verify that decides
// updates through this server with policies enforcing the declarations,
// where the CRD's schema holds none (its Target.CRD is the CRD as
// published). For each version it installs the version's policies,
// retargeted to the API group the judge installs the CRD in and leaving
// the creation of old objects alone, then the CRD, as
// apiserver.Server.NewJudge does; a pair is decided as that judge decides
// it: create the old object, update it to the new one, and replay a
// refused update on the CRD without rules, which no policy matches, to
// tell a pair the server refuses whatever the policies say.
//
// The server runs the CRD's own rules, then the policies, as a
// kube-apiserver does. A refusal by a policy is one detail, the server's
// message, which names the first validation that denied; a validation
// that failed to evaluate is marked with verify.PolicyErrorMarker.
func (s *Server) NewPolicyJudge(policies []policy.ValidatingPolicy) func(verify.Target) (verify.Judge, error) {
	return func(t verify.Target) (verify.Judge, error) {
		c, err := crd.Read(t.CRD)
		if err != nil {
			return nil, err
		}
		prepare := func(judged string) error {
			var objs []runtime.Object
			for _, p := range policies {
				if p.Version == t.Version {
					objs = append(objs, retargeted(p, c.Group, judged)...)
				}
			}
			return s.InstallPolicies(context.Background(), objs...)
		}
		return s.NewJudgeWith(t, apiserver.JudgeOptions{Prepare: prepare, CreateAs: &oldWriter, Causes: policyCauses})
	}
}

// retargeted returns copies of p's policy and binding, named for the
// judged group, that match it where they matched group, and leave the
// requests of oldWriter alone.
func retargeted(p policy.ValidatingPolicy, group, judged string) []runtime.Object {
	pol, b := p.Policy.DeepCopy(), p.Binding.DeepCopy()
	if b == nil {
		// A policy read without its bindings (verify --against-policy)
		// is judged as policyjudge.PolicyJudge judges it: denying.
		b = &admissionregistrationv1.ValidatingAdmissionPolicyBinding{Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		}}
	}
	suffix := "-" + judgedSuffix(judged, group)
	pol.Name += suffix
	b.Name = pol.Name
	b.Spec.PolicyName = pol.Name
	retarget(pol.Spec.MatchConstraints, group, judged)
	retarget(b.Spec.MatchResources, group, judged)
	pol.Spec.MatchConditions = append(pol.Spec.MatchConditions, oldWriterExempt())
	return []runtime.Object{pol, b}
}

// judgedSuffix is what tells the copies of policies for the judged group
// apart: its prefix.
func judgedSuffix(judged, group string) string { return strings.TrimSuffix(judged, "."+group) }

// oldWriterExempt is the match condition that leaves the requests of
// oldWriter alone.
func oldWriterExempt() admissionregistrationv1.MatchCondition {
	return admissionregistrationv1.MatchCondition{
		Name:       "mut2cel-judge-writes-old",
		Expression: fmt.Sprintf("request.userInfo.username != %q", oldWriter.UserName),
	}
}

func retarget(m *admissionregistrationv1.MatchResources, group, judged string) {
	if m == nil {
		return
	}
	for _, rules := range [][]admissionregistrationv1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			for k, g := range rules[i].APIGroups {
				if g == group {
					rules[i].APIGroups[k] = judged
				}
			}
		}
	}
}

// policyEvalError is how the admission plugin's CEL reports a validation
// that failed to evaluate (k8s.io/apiserver/pkg/admission/plugin/cel,
// activation.go).
const policyEvalError = " resulted in error: "

// policyCauses returns the causes of an Invalid status error, sorted:
// those of the CRD's rules as "field: message", and the one without a
// field by which the admission plugin reports a denial as its message,
// marked with verify.PolicyErrorMarker when a validation failed to
// evaluate.
func policyCauses(err error) ([]string, bool) {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Reason != metav1.StatusReasonInvalid {
		return nil, false
	}
	var out []string
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			switch {
			case c.Field != "":
				out = append(out, c.Field+": "+c.Message)
			case strings.Contains(c.Message, policyEvalError):
				out = append(out, verify.PolicyErrorMarker+c.Message)
			default:
				out = append(out, c.Message)
			}
		}
	}
	sort.Strings(out)
	return out, true
}
