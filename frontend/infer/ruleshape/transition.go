package ruleshape

import (
	"github.com/google/cel-go/common/ast"

	"github.com/mut2cel/mut2cel/decl"
)

// A transition rule is read by what it does to one field, its target,
// in each of the five things an update can do to it (change). A rule
// that denies a change for every value of the tests it makes of other
// things enforces the constraint of docs/semantics.md section 9 that
// forbids the change; one that denies it for some values only holds
// under a condition, and is no declaration.
//
//	change     constraint that forbids it
//	stays      (absent before and after: nothing to forbid)
//	set        NoSet
//	unset      NoUnset
//	kept       (present before and after, equal: nothing)
//	modified   NoModify
//
// A rule hosted on the field itself (self == oldSelf) runs only where the
// field exists before and after, so it can forbid modified only; a rule
// on a parent that tests has() sees all five. Errors count as denials, as
// in the apiserver: self.x == oldSelf.x on a parent fails, and so denies,
// where x is set or unset.

type change uint8

const (
	stays change = iota
	set
	unset
	kept
	modified
)

var changes = []change{stays, set, unset, kept, modified}

// forbids is the constraint that forbids a change, 0 for none.
var forbids = map[change]decl.Constraint{set: decl.NoSet, unset: decl.NoUnset, modified: decl.NoModify}

// Transition is what one rule does to one field.
type Transition struct {
	Steps []string // the field, from the rule's node
	// Certain: denied whatever else holds; Conditional: denied only when
	// something else the rule tests holds.
	Certain, Conditional decl.Constraints
	// AllowsSet and AllowsUnset: the rule tests the field's presence and
	// lets it appear (disappear): it says so, it does not just fail to
	// see it.
	AllowsSet, AllowsUnset bool
	// NullGuard: the rule lets a field with no old value take any value
	// (oldSelf == null || self == oldSelf), the idiom of "set once".
	NullGuard bool
}

// maxUnknowns bounds the tests of other things a formula may make: the
// cases grow as two to their number.
const maxUnknowns = 8

// transitions reads one conjunct of a rule. onNode says whether the
// rule's own node can be a target (not for the schema root, which always
// exists); optional says the rule sets optionalOldSelf, so that it also
// runs where the node was just added. ok is false for a conjunct that
// reads oldSelf in a way the table does not know.
func transitions(p Rule, e ast.Expr, onNode, optional bool) ([]Transition, bool) {
	var as atoms
	f := build(p, e, &as)
	var out []Transition
	for _, t := range targets(as.list) {
		if len(t) == 0 && !onNode {
			continue
		}
		tr, ok := readTarget(f, as.list, t, optional)
		if !ok {
			return nil, false
		}
		if tr.Certain != 0 || tr.Conditional != 0 {
			out = append(out, tr)
		}
	}
	return out, len(out) > 0
}

// targets are the fields a formula compares across the update: those it
// compares old with new, or tests the presence of on both sides.
func targets(list []*atom) [][]string {
	var out [][]string
	seen := map[string]bool{}
	sides := map[string]int{}
	add := func(steps []string) {
		k := pathKey(steps)
		if !seen[k] {
			seen[k] = true
			out = append(out, steps)
		}
	}
	for _, a := range list {
		switch {
		case a.kind == equal || a.kind == sameOptional:
			add(a.steps)
		case a.kind == present:
			bit := 1
			if a.old {
				bit = 2
			}
			sides[pathKey(a.steps)] |= bit
		}
	}
	for _, a := range list {
		if a.kind == present && sides[pathKey(a.steps)] == 3 {
			add(a.steps)
		}
	}
	return out
}

// readTarget evaluates f for every change of the field t.
func readTarget(f *formula, list []*atom, t []string, optional bool) (Transition, bool) {
	tr := Transition{Steps: t}
	var unknown []*atom
	for _, a := range list {
		if !about(a, t) {
			unknown = append(unknown, a)
		}
		if a.kind == present && a.old && len(a.steps) == 0 && len(t) == 0 {
			tr.NullGuard = true
		}
	}
	if len(unknown) > maxUnknowns {
		return tr, false
	}
	for _, c := range changes {
		if len(t) == 0 && !runsOnNode(c, optional) {
			continue
		}
		allow, deny, falsely := verdicts(f, t, c, unknown)
		switch {
		case (c == stays || c == kept) && falsely > 0:
			// It asks for something else than keeping the field. (An
			// error where the field is absent on both sides only shows
			// that the rule takes the field to be there.)
			return Transition{Steps: t}, true
		case forbids[c] != 0 && allow == 0:
			tr.Certain |= decl.Constraints(forbids[c])
		case forbids[c] != 0 && deny > 0:
			tr.Conditional |= decl.Constraints(forbids[c])
		case c == set && deny == 0:
			tr.AllowsSet = tests(list, t, true) || optional
		case c == unset && deny == 0:
			tr.AllowsUnset = tests(list, t, false)
		}
	}
	emptyIsACondition(&tr, list, t)
	return tr, true
}

// emptyIsACondition: a presence read from a test of emptiness
// (size(oldSelf.x) == 0) is also true of an empty value, which is set:
// such a rule lets an empty x go (or come), a condition on its value,
// so what it forbids of x's presence on that side holds only under it.
// !has(oldSelf.x) || size(oldSelf.x) == 0 || has(self.x) keeps x from
// going unless it is empty: not NoUnset.
func emptyIsACondition(tr *Transition, list []*atom, t []string) {
	for _, a := range list {
		if a.kind != present || !a.emptyAsUnset || !about(a, t) {
			continue
		}
		c := decl.Constraints(decl.NoSet)
		if a.old {
			c = decl.Constraints(decl.NoUnset)
		}
		if tr.Certain&c != 0 {
			tr.Certain &^= c
			tr.Conditional |= c
		}
	}
}

// verdicts evaluates f for change c of t under every value of the
// unknown tests: how often it allows, denies, and denies by false (not
// by an error).
func verdicts(f *formula, t []string, c change, unknown []*atom) (allow, deny, falsely int) {
	for bits := 0; bits < 1<<len(unknown); bits++ {
		switch f.eval(world(t, c, unknown, bits)) {
		case tru:
			allow++
		case fls:
			deny, falsely = deny+1, falsely+1
		default:
			deny++
		}
	}
	return allow, deny, falsely
}

// runsOnNode: a rule hosted on the field itself runs where the field
// exists before and after, and, with optionalOldSelf, where it is set.
func runsOnNode(c change, optional bool) bool {
	return c == kept || c == modified || optional && c == set
}

// about reports whether a speaks of the field t: its presence (or that
// of a property above it, which comes and goes with it here), or its old
// and new values compared.
func about(a *atom, t []string) bool {
	switch a.kind {
	case present:
		return len(a.steps) <= len(t) && sameSteps(a.steps, t[:len(a.steps)])
	case equal, sameOptional:
		return sameSteps(a.steps, t)
	}
	return false
}

// tests reports whether the formula tests t's presence on the old
// (old true) or the new side.
func tests(list []*atom, t []string, old bool) bool {
	for _, a := range list {
		if a.kind == present && a.old == old && sameSteps(a.steps, t) {
			return true
		}
	}
	return false
}

// world values the atoms for change c of t, and the unknown ones by the
// bits of an assignment.
func world(t []string, c change, unknown []*atom, bits int) func(*atom) tv {
	before := c == unset || c == kept || c == modified
	after := c == set || c == kept || c == modified
	return func(a *atom) tv {
		for i, u := range unknown {
			if u == a {
				return truth(bits&(1<<i) != 0)
			}
		}
		switch a.kind {
		case present:
			if a.old {
				return truth(before)
			}
			return truth(after)
		case equal:
			if !before || !after {
				return errv // no such key
			}
			return truth(c == kept)
		case sameOptional:
			return truth(c == stays || c == kept)
		}
		return errv
	}
}

func pathKey(steps []string) string {
	k := ""
	for _, s := range steps {
		k += s + "\x00"
	}
	return k
}
