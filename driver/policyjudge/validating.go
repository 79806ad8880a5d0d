package policyjudge

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify"
)

// PolicyJudge returns an Options.NewJudge of verify.Verify that decides
// updates the way a cluster does where the declarations are enforced by
// validating admission policies rather than by the CRD's rules: the CRD's
// own rules (those of the document Verify is given as translated, which
// then holds no generated rules) run first, as the apiserver validates an
// object before validating admission, and the version's policy, evaluated
// with the apiserver's own admission-policy code, decides what they
// allow. A policy's validation that fails to evaluate denies the update
// (the policies are written with failurePolicy Fail) and is reported as
// an evaluation error, marked with verify.PolicyErrorMarker.
//
// It lives with the driver, not in verify, because it runs the
// apiserver's admission code on what a back end wrote: verify judges by
// the CRD's rules alone and imports no back end.
//
// A CRD that carries a built-in kind to the compiler (builtin.OfVehicle)
// is judged with requests that update the kind itself, as a cluster
// sends them.
func PolicyJudge(policies []policy.ValidatingPolicy) func(verify.Target) (verify.Judge, error) {
	return func(t verify.Target) (verify.Judge, error) {
		c, err := crd.Read(t.CRD)
		if err != nil {
			return nil, err
		}
		j := &policyJudge{
			rules:    kube.NewRuleValidator(t.Schema),
			resource: schema.GroupVersionResource{Group: c.Group, Version: t.Version, Resource: c.Plural},
			kind:     schema.GroupVersionKind{Group: c.Group, Version: t.Version, Kind: c.Kind},
		}
		if gvr, gvk, ok := builtin.OfVehicle(j.resource, j.kind); ok {
			j.resource, j.kind, j.builtin = gvr, gvk, true
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
	// builtin says that the objects, of the CRD carrying a built-in kind,
	// are sent as objects of the kind.
	builtin bool
}

func (j *policyJudge) Update(old, new map[string]interface{}) (bool, []string, error) {
	detail := verify.SortedMessages(j.rules.Validate(new, old))
	if len(detail) > 0 {
		return true, detail, nil
	}
	if j.builtin {
		old, new = j.asKind(old), j.asKind(new)
	}
	for _, p := range j.policies {
		d, err := p.Validate(admit.Request{Operation: admission.Update, Resource: j.resource, Kind: j.kind, Namespace: namespaceOf(new), Object: new, OldObject: old})
		if err != nil {
			return false, nil, err
		}
		detail = append(detail, d.Denied...)
		for _, e := range d.Errors {
			detail = append(detail, fmt.Sprintf("%s%s", verify.PolicyErrorMarker, e))
		}
	}
	return len(detail) > 0, detail, nil
}

func namespaceOf(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	ns, _ := md["namespace"].(string)
	return ns
}

// asKind is obj with the apiVersion and kind of the judge's kind, the
// rest shared: a cluster stores and admits it so.
func (j *policyJudge) asKind(obj map[string]interface{}) map[string]interface{} {
	if obj == nil {
		return nil
	}
	out := make(map[string]interface{}, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"], out["kind"] = j.kind.GroupVersion().String(), j.kind.Kind
	return out
}
