package verify

import (
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// What a judged or refused pair adds to the report of its version.

// countRefused adds a refused pair to the constraints it would have
// broken.
func (r *versionRun) countRefused(broken []reference.Constraint) {
	for _, k := range broken {
		if cr := r.byConstraint[k]; cr != nil {
			cr.Refused++
		}
	}
}

// record adds the pair numbered i, judged v, to rep and to the run's
// counts.
func (r *versionRun) record(rep *VersionReport, i int, old, new map[string]interface{}, v verdicts) error {
	switch v.outcome {
	case agreed:
		r.countDeclarations(v, nil)
		r.countConstraints(v)
	case intAsFloat:
		rep.IntAsFloat++
		if rep.IntAsFloatExample == nil {
			rep.IntAsFloatExample = &Example{Pair: i, Old: old, New: new}
		}
		r.countDeclarations(v, nil)
	case invalid:
		rep.Invalid++
		r.recordSetAside(rep, i, old, new, v.refusal)
	case disagreed, evalFailed:
		r.countConstraints(v)
		rep.Disagreements++
		if rep.First == 0 {
			rep.First = i
		}
		return r.recordCause(rep, i, old, new, v)
	}
	return nil
}

// recordSetAside counts a refused pair under its reason, keeping the
// first pair of each reason as its example.
func (r *versionRun) recordSetAside(rep *VersionReport, i int, old, new map[string]interface{}, ref *Refusal) {
	if ref == nil {
		ref = &Refusal{Reason: "refused by the judge"}
	}
	if ref.field != "" {
		r.gen.Refused(ref.field)
	}
	if sa, ok := r.setAside[ref.Reason]; ok {
		sa.Pairs++
		return
	}
	sa := &SetAsideReport{Refusal: *ref, Pairs: 1, Example: Example{Pair: i, Old: old, New: new}}
	r.setAside[ref.Reason] = sa
	rep.SetAside = append(rep.SetAside, sa)
}

// countConstraints adds a judged pair to the constraints it breaks: on
// it, the rules under test must deny. A rule of the declared CRD that
// denies it too does not make it count less: whichever rule denies, the
// CRD under test must, and a CRD under test that lets it through
// disagrees with the reference all the same.
func (r *versionRun) countConstraints(v verdicts) {
	if len(v.broken) == 0 {
		return
	}
	for _, k := range v.broken {
		if cr := r.byConstraint[k]; cr != nil {
			cr.Violating++
		}
	}
	for _, dr := range r.counts {
		for _, k := range v.broken {
			if k.Declaration == dr.Declaration {
				dr.Violating++
				break
			}
		}
	}
}

// recordCause counts a disagreement under its cause and its groups. The
// first pair of each of the first Options.Counterexamples causes, and of
// each of the first as many groups, is shrunk once and shown by both.
func (r *versionRun) recordCause(rep *VersionReport, i int, old, new map[string]interface{}, v verdicts) error {
	cause := r.cause(old, new, v)
	r.countDeclarations(v, &cause)
	key := cause.Key()
	c, seen := r.causes[key]
	if seen {
		c.Disagreements++
	} else {
		c = &CauseReport{Cause: cause, Disagreements: 1, First: i}
		r.causes[key] = c
		rep.Causes = append(rep.Causes, c)
	}
	var fresh []*GroupReport
	for _, g := range groupsOf(cause, v.broken) {
		gk := g.Key()
		if known, ok := r.groups[gk]; ok {
			known.Disagreements++
			continue
		}
		g.Disagreements, g.First = 1, i
		r.groups[gk] = g
		rep.Groups = append(rep.Groups, g)
		fresh = append(fresh, g)
	}
	causeShown := !seen && len(rep.Counterexamples) < r.opts.Counterexamples
	var groupsShown []*GroupReport
	for _, g := range fresh {
		if r.groupsShown < r.opts.Counterexamples {
			r.groupsShown++
			groupsShown = append(groupsShown, g)
		}
	}
	if !causeShown && len(groupsShown) == 0 {
		return nil
	}
	ce, err := r.counterexample(i, old, new, v, key)
	if err != nil {
		return err
	}
	if causeShown {
		c.Counterexample = ce
		rep.Counterexamples = append(rep.Counterexamples, ce)
	}
	for _, g := range groupsShown {
		g.Counterexample = ce
	}
	return nil
}

// cause attributes the disagreement of a raw pair judged v.
func (r *versionRun) cause(old, new map[string]interface{}, v verdicts) Cause {
	return causeOf(v, r.decls, func() []InvolvedRule { return r.denyingRules(old, new) },
		func() []InvolvedRule { return r.denyingCompanions(old, new) })
}

// countDeclarations adds a judged pair to the declarations it exercised
// and, when it is a disagreement of the given cause, to those the
// disagreement involves (see DeclarationReport).
func (r *versionRun) countDeclarations(v verdicts, cause *Cause) {
	exercised := map[reference.Declaration]bool{}
	for _, d := range v.exercised {
		exercised[d] = true
	}
	violated := map[reference.Declaration]bool{}
	if cause != nil {
		for _, viol := range v.violations {
			violated[reference.DeclarationOf(viol, r.decls)] = true
		}
	}
	for _, dr := range r.counts {
		if exercised[dr.Declaration] {
			dr.Pairs++
		}
		if cause == nil {
			continue
		}
		if violated[dr.Declaration] {
			dr.Violated++
		}
		if exercised[dr.Declaration] || violated[dr.Declaration] || ruleOnLine(cause.Rules, dr.Path) {
			dr.Disagreements++
		}
	}
}

// ruleOnLine reports whether one of rules sits at the schema path, above
// it or below it.
func ruleOnLine(rules []InvolvedRule, path string) bool {
	for _, rr := range rules {
		if schemapath.OnSchemaLine(rr.Path, path) {
			return true
		}
	}
	return false
}
