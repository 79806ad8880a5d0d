package verify

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// PolicyJudge returns an Options.NewJudge that decides updates the way a
// cluster does where the declarations are enforced by validating
// admission policies rather than by the CRD's rules: the CRD's own rules
// (those of the document Verify is given as translated, which then holds
// no generated rules) run first, as the apiserver validates an object
// before validating admission, and the version's policy, evaluated with
// the apiserver's own admission-policy code, decides what they allow. A
// policy's validation that fails to evaluate denies the update (the
// policies are written with failurePolicy Fail) and is reported as an
// evaluation error.
func PolicyJudge(policies []policy.ValidatingPolicy) func(Target) (Judge, error) {
	return func(t Target) (Judge, error) {
		c := readCRD(t.CRD)
		j := &policyJudge{
			rules:    kube.NewRuleValidator(t.Schema),
			resource: schema.GroupVersionResource{Group: c.Group, Version: t.Version, Resource: c.Plural},
			kind:     schema.GroupVersionKind{Group: c.Group, Version: t.Version, Kind: c.Kind},
		}
		for _, p := range policies {
			if p.Version != t.Version {
				continue
			}
			v, err := admit.NewValidating(p.Policy)
			if err != nil {
				return nil, err
			}
			j.policies = append(j.policies, v)
		}
		return j, nil
	}
}

type policyJudge struct {
	rules    *kube.RuleValidator
	resource schema.GroupVersionResource
	kind     schema.GroupVersionKind
	policies []*admit.Validating
}

// PolicyErrorMarker starts the detail of a policy's validation that
// failed to evaluate, so that evaluationErrors counts it. A Judge of
// another package that decides by policies starts such details with it
// too.
const PolicyErrorMarker = "policy validation error: "

func (j *policyJudge) Update(old, new map[string]interface{}) (bool, []string, error) {
	detail := sortedErrors(j.rules.Validate(new, old))
	if len(detail) > 0 {
		return true, detail, nil
	}
	for _, p := range j.policies {
		d, err := p.Validate(admit.Request{Operation: admission.Update, Resource: j.resource, Kind: j.kind, Namespace: namespaceOf(new), Object: new, OldObject: old})
		if err != nil {
			return false, nil, err
		}
		detail = append(detail, d.Denied...)
		for _, e := range d.Errors {
			detail = append(detail, fmt.Sprintf("%s%s", PolicyErrorMarker, e))
		}
	}
	return len(detail) > 0, detail, nil
}

func namespaceOf(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	ns, _ := md["namespace"].(string)
	return ns
}
