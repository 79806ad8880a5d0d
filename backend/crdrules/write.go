package crdrules

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/plan"
)

// Output is a plan written into the CRD document it was compiled from.
type Output struct {
	// Edits turn the document as it is into Translated: owned rules not
	// generated again removed, new rules appended, the bounds set, the
	// declarations taken out of the schemas and the annotations written.
	Edits []edit.Edit
	// Translated is the document with the Edits applied.
	Translated map[string]interface{}
	// Record lists the fingerprints of every generated rule of
	// Translated, as its mut2cel.io/generated annotation does.
	Record decl.Record
	// Fresh are the edits of the plan alone, from the document with the
	// owned rules set aside: every rule they add is generated.
	Fresh []edit.Edit
	// Base is the document without anything mut2cel reads or writes: no
	// declarations, no mut2cel.io annotations, none of the rules it owns.
	Base map[string]interface{}
	// Rules are the rules of each version by its name, with the
	// declarations each stands for and its cost.
	Rules map[string]*VersionRules
	// Bounds are the bounds the Edits add, in document order.
	Bounds []AddedBound
	// Warnings are things the user should know: a generated rule edited
	// by hand that is now kept as the user's own, rules that may pass the
	// runtime cost limits on the largest objects.
	Warnings []diag.Diagnostic
	// Problems are every reason the plan cannot be written: a
	// declaration no exact rule can check, rules over the cost limits,
	// an output the apiserver would refuse. With problems, nothing else
	// of the Output but Rules, Bounds and Warnings is set.
	Problems []diag.Diagnostic
}

// Write is the CRD back end: it says the checks of p, compiled from the
// CRD c, as x-kubernetes-validations rules, adds the bounds they need to
// fit the CEL cost limits, checks the result as the target apiserver
// would (Options.Validate), and writes it into c's document with the
// annotations that let a later run do the same (docs/rewrite.md). The
// rules an earlier run generated are set aside first, so that a rule the
// user wrote is never generated again while one mutation generated is.
// An error is a fault of mut2cel's, never of the input.
func Write(c *crd.CRD, p *plan.Plan, opts Options) (*Output, error) {
	owned := FindOwned(c)
	out := &Output{Rules: map[string]*VersionRules{}, Warnings: lostRuleWarnings(owned.Lost)}
	src, err := edit.Apply(c.Document(), owned.SetAside())
	if err != nil {
		return nil, err
	}
	model, err := crd.Read(src)
	if err != nil {
		return nil, err
	}
	if err := out.rules(model, p, opts); err != nil || len(out.Problems) > 0 {
		return out, err
	}
	edits, err := Edits(model, p, out.Rules)
	if err != nil {
		return nil, err
	}
	if opts.Validate && len(edits) > 0 {
		translated, err := edit.Apply(src, edits)
		if err != nil {
			return nil, err
		}
		if out.Problems = validateOutput(translated, edits, p.KubeVersion, "the translated CRD"); len(out.Problems) > 0 {
			return out, nil
		}
	}
	if out.Base, err = edit.Apply(src, InlineRemovals(c, declarations(p))); err != nil {
		return nil, err
	}
	w, err := writeInto(c, p, out.Rules, owned)
	if err != nil {
		return nil, err
	}
	out.Edits, out.Translated, out.Record, out.Fresh = w.edits, w.translated, w.record, w.fresh
	return out, nil
}

// rules writes the rules of every version of p that declares, and their
// bounds, into out; model is the CRD with its owned rules set aside.
func (out *Output) rules(model *crd.CRD, p *plan.Plan, opts Options) error {
	memo := map[string]costResult{}
	for i := range p.Versions {
		pv := &p.Versions[i]
		if len(pv.Declarations) == 0 {
			continue
		}
		v, _ := model.Version(pv.Name)
		vr, problems, err := Rules(v, *pv, p.KubeVersion, opts)
		if err != nil {
			return err
		}
		out.Rules[pv.Name] = vr
		if len(problems) == 0 {
			var bounds []AddedBound
			var warnings []diag.Diagnostic
			bounds, problems, warnings = addBounds(v, pv, vr, p.KubeVersion, opts, memo)
			out.Bounds = append(out.Bounds, bounds...)
			out.Warnings = append(out.Warnings, warnings...)
		}
		out.Problems = append(out.Problems, problems...)
	}
	return nil
}

// ValidateServed checks the CRD c, with the declarations of p taken out
// of its schemas and no rule added, as the apiserver validates a CRD it
// is to serve: for a back end that writes no rule into the CRD, but
// whose output is only worth something for a CRD the apiserver serves.
func ValidateServed(c *crd.CRD, p *plan.Plan) ([]diag.Diagnostic, error) {
	edits, err := Edits(c, p, nil)
	if err != nil || len(edits) == 0 {
		return nil, err
	}
	out, err := edit.Apply(c.Document(), edits)
	if err != nil {
		return nil, err
	}
	return validateOutput(out, edits, p.KubeVersion, "the CRD"), nil
}

// declarations lists the declarations of every version of p.
func declarations(p *plan.Plan) []decl.Declaration {
	var out []decl.Declaration
	for _, pv := range p.Versions {
		out = append(out, pv.Declarations...)
	}
	return out
}

// lostRuleWarnings word the fingerprints of the record that do not lead
// to exactly one rule (FindOwned).
func lostRuleWarnings(lost []LostRule) []diag.Diagnostic {
	var warnings []diag.Diagnostic
	for _, l := range lost {
		var p diag.Diagnostic
		if l.Hits == 0 {
			p = newProblem("", "version %s, %s: generated rule %s is no longer there as mut2cel wrote it (edited or deleted by hand, or its node is gone): an edited copy stays as your own rule, and the rules the declarations need are generated again", l.Version, l.Path, l.Fingerprint)
		} else {
			p = newProblem("", "version %s, %s: generated rule %s was found on %d nodes: all are kept as your own rules, and the rules the declarations need are generated again", l.Version, l.Path, l.Fingerprint, l.Hits)
		}
		warnings = append(warnings, crd.AtAnnotation(decl.AnnotationGenerated, p))
	}
	return warnings
}
