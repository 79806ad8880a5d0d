package verify

import (
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/verify/reference"
)

// Kinds of causes: which side refused the update.
const (
	// CauseMissed: the declarations deny the update, the rules allow it.
	CauseMissed = "missed"
	// CauseDenied: the rules deny the update, the declarations allow it.
	CauseDenied = "denied"
	// CauseEvaluationError: a rule failed to evaluate.
	CauseEvaluationError = "evaluation error"
)

// Cause is what a disagreement is put down to, from what each side says
// about it: the rules that deny the pair when the rules are at fault, the
// declarations and kinds of violation when the declarations are denied
// and the rules let the update through. Disagreements of one cause are
// most often one mistake, so each cause is shrunk and shown once.
type Cause struct {
	Kind string
	// Rules are the rules that, each alone, deny the pair; set when Kind
	// is CauseDenied or CauseEvaluationError. When Kind is CauseMissed,
	// they are the declared CRD's own rules that deny the pair and that
	// the CRD under test lets through.
	Rules []InvolvedRule
	// Violated are the declarations the reference checker finds broken,
	// with the kind of violation (value, presence, keys), once each,
	// sorted; set when Kind is CauseMissed.
	Violated []ViolatedDeclaration
}

// ViolatedDeclaration is a declaration and the kind of its violation.
type ViolatedDeclaration struct {
	reference.Declaration
	Kind string // value, presence or keys
}

// Key is the cause in one line; two disagreements have the same cause
// exactly when their keys are equal.
func (c Cause) Key() string {
	var parts []string
	for _, r := range c.Rules {
		parts = append(parts, "rule at "+r.Path+": "+r.Rule)
	}
	for _, v := range c.Violated {
		parts = append(parts, v.Kind+" of "+v.Extension+": "+v.Value+" at "+v.Path)
	}
	if len(parts) == 0 {
		return c.Kind
	}
	return c.Kind + ": " + strings.Join(parts, "; ")
}

// causeOf attributes a disagreement. denying lists the rules that alone
// deny the pair; it is called only when the rules are at fault. companions
// lists the declared CRD's own rules that alone deny it; it is called only
// when the rules under test allow an update that they deny.
func causeOf(v verdicts, decls []reference.Declaration, denying, companions func() []InvolvedRule) Cause {
	switch {
	case v.outcome == evalFailed:
		return Cause{Kind: CauseEvaluationError, Rules: denying()}
	case v.denied:
		return Cause{Kind: CauseDenied, Rules: denying()}
	}
	c := Cause{Kind: CauseMissed}
	if len(v.companions) > 0 {
		c.Rules = companions()
	}
	seen := map[ViolatedDeclaration]bool{}
	for _, viol := range v.violations {
		vd := ViolatedDeclaration{Declaration: reference.DeclarationOf(viol, decls), Kind: viol.Kind}
		if !seen[vd] {
			seen[vd] = true
			c.Violated = append(c.Violated, vd)
		}
	}
	sort.Slice(c.Violated, func(i, j int) bool {
		a, b := c.Violated[i], c.Violated[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Extension != b.Extension {
			return a.Extension < b.Extension
		}
		return a.Kind < b.Kind
	})
	return c
}

// CauseReport counts the disagreements of one cause.
type CauseReport struct {
	Cause Cause
	// Disagreements counts the pairs of this cause; First is the number of
	// the first.
	Disagreements, First int
	// Counterexample is the first pair of this cause, shrunk while it
	// keeps the cause; nil beyond Options.Counterexamples causes.
	Counterexample *Counterexample
}

// DeclarationReport counts the pairs that exercised one declaration: the
// reference checker applied one of its rules, broken or not, to a
// position of the pair (see reference.Checker.CheckExercised).
type DeclarationReport struct {
	reference.Declaration
	// Pairs counts the pairs judged (not set aside) that exercised it;
	// Violating those that break it (see ConstraintReport); Disagreements the disagreements that involve it;
	// Violated those disagreements in which the reference checker reports
	// it broken.
	Pairs, Violating, Disagreements, Violated int
}

// GroupReport gathers the disagreements that share one part of their
// causes: a constraint the rules let through (missed), or a rule that
// denies or fails (denied, evaluation error). A pair with several such
// parts counts in each of their groups. Thousands of causes, each a
// combination of parts, are a few groups: one per mistake.
type GroupReport struct {
	// Kind is CauseMissed, CauseDenied or CauseEvaluationError.
	Kind string
	// Constraint is the constraint the rules let through, for a missed
	// group of the declarations.
	Constraint *reference.Constraint
	// Rule is the rule that denies or fails; for a missed group, the
	// rule of the declared CRD that denies.
	Rule *InvolvedRule
	// Disagreements counts its pairs, First is the number of the first.
	Disagreements, First int
	// Counterexample is its first pair shrunk, for the first
	// Options.Counterexamples groups.
	Counterexample *Counterexample
}

// Key is the group in one line.
func (g *GroupReport) Key() string {
	switch {
	case g.Constraint != nil:
		return g.Kind + ": " + g.Constraint.String()
	case g.Rule != nil && g.Kind == CauseMissed:
		return g.Kind + ": rule of the declared CRD at " + g.Rule.Path + ": " + g.Rule.Rule
	case g.Rule != nil:
		return g.Kind + ": rule at " + g.Rule.Path + ": " + g.Rule.Rule
	}
	return g.Kind
}

// groupsOf lists the groups a disagreement of cause c with broken
// constraints belongs to.
func groupsOf(c Cause, broken []reference.Constraint) []*GroupReport {
	var out []*GroupReport
	if c.Kind == CauseMissed {
		for i := range broken {
			out = append(out, &GroupReport{Kind: c.Kind, Constraint: &broken[i]})
		}
	}
	for i := range c.Rules {
		out = append(out, &GroupReport{Kind: c.Kind, Rule: &c.Rules[i]})
	}
	if len(out) == 0 {
		out = append(out, &GroupReport{Kind: c.Kind})
	}
	return out
}
