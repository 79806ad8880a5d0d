package auditrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/frontend/infer"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// counterexamples is how many causes and groups of disagreements per
// version the verifier shrinks to a counterexample, for a CRD of n sure
// proposals: a few for each (the causes of one proposal are the kinds of
// violation of its declarations, alone or with others'), at least 16, and
// not so many that shrinking outlasts the check.
func counterexamples(n int) int { return min(max(4*n, 16), 64) }

// setsName names the proposals in what the compiler and the verifier say
// of them; no message the user sees carries it.
const setsName = "proposals"

// audited is the audit of one CRD.
type audited struct {
	findings    []Finding
	bounds      *CRDBounds
	notes       []Note
	documenting bool
	problems    []batch.Diagnostic
}

// auditCRD proposes declarations for c, checks the sure ones against its
// published rules with the verifier, and makes a finding of each.
func auditCRD(c batch.InputCRD, o Options) audited {
	p, problems := inferrun.Propose(c, o.Translate, o.Translator)
	if len(problems) > 0 {
		return audited{problems: problems}
	}
	a := audited{}
	origin := originOf(c.At)
	for _, u := range p.Unplaced {
		a.notes = append(a.notes, Note{CRD: p.Result.CRD, Origin: origin, Note: u.Detail})
	}
	var checked *verifyrun.CRDResult
	if sets := infer.Sets(setsName, []*infer.Result{p.Result}); len(sets) > 0 {
		a.documenting = true
		var err error
		if checked, err = check(c, sets, counterexamples(len(p.Result.Proposals)), o); err != nil {
			return audited{problems: c.Diags(fmt.Errorf("verifying the published rules against the proposals: %w", err))}
		}
		a.notes = append(a.notes, ruleNotes(p.Result.CRD, origin, checked)...)
	}
	for _, pr := range p.Result.Proposals {
		a.findings = append(a.findings, findingOf(p, pr, checked, origin))
	}
	a.bounds = boundsOf(p)
	return a
}

// check verifies the published CRD against the sets as declared, as
// verify --against does: the published rules under test, the proposals
// and those same rules the reference. A version like an earlier one is
// checked once (versions.go).
func check(c batch.InputCRD, sets []decl.Set, examples int, o Options) (*verifyrun.CRDResult, error) {
	declared, err := declread.CRD(c.Value, sets, false)
	if err != nil {
		return nil, err
	}
	like := sameAs(declared, c.Value)
	rep, err := verify.Verify(withoutServing(declared, like), withoutServing(c.Value, like),
		verify.Options{Pairs: o.Pairs, Seed: o.Seed, Workers: 1, Counterexamples: examples})
	if err != nil {
		return nil, err
	}
	doc := verifyrun.NewDocument()
	doc.Add(verifyrun.Job{Declared: batch.InputCRD{At: c.At, Value: declared}, Tested: c.Value}, rep)
	copyVersions(&doc.CRDs[0], like, c.Value)
	return &doc.CRDs[0], nil
}

// originOf is where a CRD was read: file:line, or a cluster's name for it.
func originOf(at batch.Diagnostic) string {
	if at.Line > 0 {
		return fmt.Sprintf("%s:%d", at.File, at.Line)
	}
	return at.File
}

// ruleNotes note the published rules that deny, or fail, where the
// verifier's reference (the proposals and those same rules) allows.
func ruleNotes(crd, origin string, r *verifyrun.CRDResult) []Note {
	var out []Note
	for _, v := range r.Versions {
		for _, g := range v.Groups {
			if g.Kind == verify.CauseMissed || g.Rule == nil {
				continue
			}
			what := "denies"
			if g.Kind == verify.CauseEvaluationError {
				what = "fails to evaluate on"
			}
			out = append(out, Note{CRD: crd, Origin: origin, Note: fmt.Sprintf("version %s: the published rule at %s, %q, %s %d updates the documented guarantees and the other rules allow",
				v.Version, g.Rule.Path, g.Rule.Rule, what, g.Disagreements)})
		}
	}
	return out
}

// boundsOf lists the bounds translate adds to the CRD with the sure
// proposals; nil without any.
func boundsOf(p *inferrun.Proposed) *CRDBounds {
	if p.Translation == nil || len(p.Translation.Bounds) == 0 {
		return nil
	}
	b := &CRDBounds{CRD: p.Result.CRD}
	for _, x := range p.Translation.Bounds {
		b.Bounds = append(b.Bounds, fmt.Sprintf("%s %s: %s: %d", x.Version, x.Node, x.Keyword, x.Value))
	}
	return b
}
