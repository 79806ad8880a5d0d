package policyrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/manifest"
)

// Cost is what a validating policy costs at run time: the estimate of
// each validation and the object sizes up to which they are sure to stay
// within the runtime limits (costest.PolicyReach).
type Cost struct {
	Version string
	Policy  string
	Reach   *costest.Reach
}

// policyCost estimates the validations of v on the resource of model.
// An expression that does not compile where the apiserver runs policies
// is an error: the policy would be refused or fail every request.
func policyCost(v policy.ValidatingPolicy, model *crd.CRD) (*Cost, error) {
	cv, ok := model.Version(v.Version)
	if !ok {
		return nil, fmt.Errorf("version %s: not in the CRD", v.Version)
	}
	root, err := cv.Schema()
	if err != nil {
		return nil, err
	}
	var estimated costest.Policy
	for _, val := range v.Policy.Spec.Validations {
		estimated.Expressions = append(estimated.Expressions, val.Expression)
	}
	for _, vr := range v.Policy.Spec.Variables {
		estimated.Variables = append(estimated.Variables, costest.Variable{Name: vr.Name, Expression: vr.Expression})
	}
	reach, err := costest.PolicyReach(root, estimated)
	if err != nil {
		return nil, fmt.Errorf("version %s: estimating the cost of policy %s: %w", v.Version, v.Policy.Name, err)
	}
	for _, c := range reach.Costs {
		if c.Error != "" {
			return nil, fmt.Errorf("version %s: policy %s: %s does not compile where the apiserver runs policies: %s", v.Version, v.Policy.Name, c.Path(), c.Error)
		}
	}
	return &Cost{Version: v.Version, Policy: v.Policy.Name, Reach: reach}, nil
}

// costNote is the line that reports the cost of one policy, placed at its
// version in the input: how many validations, and up to which object
// sizes they are sure to stay within the runtime limits (docs/cost.md).
// It is one line: the worst cases, astronomical where a list or string
// is unbounded, say less than the sizes.
func costNote(at batch.Diagnostic, d *manifest.Document, model *crd.CRD, c *Cost) batch.Diagnostic {
	note := at
	if cv, ok := model.Version(c.Version); ok && d != nil {
		note.Line = d.Line(cv.Path())
	}
	note.RenderedPath = "version " + c.Version
	note.Detail = costLine(c.Reach)
	return note
}

// costLine says, for example, "9 validations, within
// the runtime limits on objects whose lists and maps hold at most 50
// entries and strings at most 253 characters (docs/cost.md)".
func costLine(r *costest.Reach) string {
	n := len(r.Costs)
	what := fmt.Sprintf("%d %s, ", n, diag.Plural(n, "validation"))
	switch {
	case !r.Exceeds():
		return what + "within the runtime limits on any object"
	case r.Within:
		return what + "within the runtime limits on objects whose " + r.Sizes() + " (docs/cost.md)"
	}
	return what + "over the runtime limits even on objects whose lists and maps hold 1 entry and strings 253 characters (docs/cost.md)"
}
