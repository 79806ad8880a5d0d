package ruleshape

import (
	"strings"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
)

// A rule's boolean structure (&&, ||, !, ?:, == between booleans) is
// kept as a formula over atoms: the tests the table knows (a property's
// presence, an old and a new value compared, a property compared with a
// string) and opaque ones. Evaluating the formula over every case of
// what the atoms may be says what the rule allows and denies, whatever
// way it is written: !has(oldSelf.x) || has(self.x), has(oldSelf.x) ?
// has(self.x) : true and !(has(oldSelf.x) && !has(self.x)) read alike.

// tv is a CEL outcome: false, true, or an error, which the apiserver
// takes as a denial.
type tv uint8

const (
	fls tv = iota
	tru
	errv
)

func truth(b bool) tv {
	if b {
		return tru
	}
	return fls
}

type atomKind uint8

const (
	// present: has(self.p) or has(oldSelf.p); old says which.
	present atomKind = iota
	// equal: self.p == oldSelf.p, in either order.
	equal
	// is: self.p == 'value', a property compared with a string.
	is
	// sameOptional: self.?p == oldSelf.?p, equal when both are absent
	// too.
	sameOptional
	// other: anything else, opaque.
	other
)

// atom is one test of a rule.
type atom struct {
	kind  atomKind
	old   bool
	steps []string
	value string
	// emptyAsUnset: a presence read from a test of emptiness
	// (self.p != "", size(self.p) > 0), which counts an empty value as
	// unset where mut2cel's presence counts it as set.
	emptyAsUnset bool
	key          string
}

// formula is a rule's boolean structure.
type formula struct {
	op   string // and, or, not, cond, eq, atom, const
	args []*formula
	atom *atom
	val  bool
}

// atoms is the set of atoms of one formula, one per distinct test.
type atoms struct {
	byKey map[string]*atom
	list  []*atom
}

func (as *atoms) add(a *atom) *atom {
	if as.byKey == nil {
		as.byKey = map[string]*atom{}
	}
	a.key = atomKey(a)
	if have, ok := as.byKey[a.key]; ok {
		have.emptyAsUnset = have.emptyAsUnset || a.emptyAsUnset
		return have
	}
	as.byKey[a.key] = a
	as.list = append(as.list, a)
	return a
}

func atomKey(a *atom) string {
	side := "new"
	if a.old {
		side = "old"
	}
	return string(rune('0'+a.kind)) + side + "\x00" + strings.Join(a.steps, "\x00") + "\x00" + a.value
}

// build turns a boolean expression into a formula.
func build(p Rule, e ast.Expr, as *atoms) *formula {
	fn, target, args, ok := call(e)
	switch {
	case ok && target == nil && (fn == operators.LogicalAnd || fn == operators.LogicalOr) && len(args) == 2:
		op := map[string]string{operators.LogicalAnd: "and", operators.LogicalOr: "or"}[fn]
		return &formula{op: op, args: []*formula{build(p, args[0], as), build(p, args[1], as)}}
	case ok && fn == operators.LogicalNot && len(args) == 1:
		return &formula{op: "not", args: []*formula{build(p, args[0], as)}}
	case ok && fn == operators.Conditional && len(args) == 3:
		return &formula{op: "cond", args: []*formula{build(p, args[0], as), build(p, args[1], as), build(p, args[2], as)}}
	case ok && (fn == operators.Equals || fn == operators.NotEquals) && len(args) == 2 && booleanShaped(args[0]) && booleanShaped(args[1]):
		f := &formula{op: "eq", args: []*formula{build(p, args[0], as), build(p, args[1], as)}}
		if fn == operators.NotEquals {
			return &formula{op: "not", args: []*formula{f}}
		}
		return f
	}
	if b, ok := boolLiteral(e); ok {
		return &formula{op: "const", val: b}
	}
	a, negated := classify(p, e)
	f := &formula{op: "atom", atom: as.add(a)}
	if negated {
		return &formula{op: "not", args: []*formula{f}}
	}
	return f
}

// booleanShaped: e is a test or a boolean operator, so that == between
// two of them compares truths (has(self.a) == has(oldSelf.a)).
func booleanShaped(e ast.Expr) bool {
	if _, ok := boolLiteral(e); ok {
		return true
	}
	if _, ok := hasRef(e); ok {
		return true
	}
	fn, _, _, ok := call(e)
	return ok && (fn == operators.LogicalAnd || fn == operators.LogicalOr || fn == operators.LogicalNot)
}

func boolLiteral(e ast.Expr) (bool, bool) {
	if e.Kind() != ast.LiteralKind {
		return false, false
	}
	b, ok := e.AsLiteral().Value().(bool)
	return b, ok
}

// classify reads one test; negated says the test is the atom's negation.
func classify(p Rule, e ast.Expr) (*atom, bool) {
	if r, ok := hasRef(e); ok {
		return &atom{kind: present, old: r.old, steps: r.steps}, false
	}
	fn, target, args, ok := call(e)
	if ok && target != nil && len(args) == 0 && fn == "hasValue" {
		// optionalOldSelf: oldSelf.hasValue() is "there was an old value".
		if r, ok := refOf(target); ok && r.old && len(r.steps) == 0 {
			return &atom{kind: present, old: true}, false
		}
	}
	if ok && (fn == operators.Equals || fn == operators.NotEquals) && len(args) == 2 {
		if a, neg, ok := comparison(args[0], args[1]); ok {
			return a, neg != (fn == operators.NotEquals)
		}
	}
	if ok && len(args) == 2 {
		if a, neg, ok := emptiness(fn, args[0], args[1]); ok {
			return a, neg
		}
	}
	return &atom{kind: other, value: p.text(e)}, false
}

// comparison reads x == y when it compares an old and a new value, a
// value with null, or a new value with a string; negated says the atom
// holds when x != y.
func comparison(x, y ast.Expr) (*atom, bool, bool) {
	if a, ok := optionalComparison(x, y); ok {
		return a, false, true
	}
	for _, pair := range [2][2]ast.Expr{{x, y}, {y, x}} {
		l, r := pair[0], pair[1]
		lr, lok := refOf(l)
		if !lok {
			lr, lok = oldValue(l)
		}
		rr, rok := refOf(r)
		if !rok {
			rr, rok = oldValue(r)
		}
		switch {
		case lok && rok && !lr.old && rr.old && sameSteps(lr.steps, rr.steps):
			return &atom{kind: equal, steps: lr.steps}, false, true
		case lok && isNull(r):
			return &atom{kind: present, old: lr.old, steps: lr.steps}, true, true
		case lok && !lr.old:
			if s, ok := stringLiteral(r); ok && s != "" {
				return &atom{kind: is, steps: lr.steps, value: s}, false, true
			}
			if s, ok := stringLiteral(r); ok && s == "" {
				return &atom{kind: present, steps: lr.steps, emptyAsUnset: true}, true, true
			}
		}
	}
	return nil, false, false
}

// optionalComparison reads self.?p == oldSelf.?p, in either order.
func optionalComparison(x, y ast.Expr) (*atom, bool) {
	a, aok := optRefOf(x)
	b, bok := optRefOf(y)
	if !aok || !bok || a.old == b.old || !sameSteps(a.steps, b.steps) {
		return nil, false
	}
	return &atom{kind: sameOptional, steps: a.steps}, true
}

// oldValue reads oldSelf.value() (optionalOldSelf) as oldSelf.
func oldValue(e ast.Expr) (ref, bool) {
	fn, target, args, ok := call(e)
	if !ok || fn != "value" || target == nil || len(args) != 0 {
		return ref{}, false
	}
	r, ok := refOf(target)
	return r, ok && r.old && len(r.steps) == 0
}

// emptiness reads size(self.p) > 0, self.p.size() != 0 and the like as a
// presence that counts an empty value as unset.
func emptiness(fn string, x, y ast.Expr) (*atom, bool, bool) {
	r, ok := sizeOf(x)
	n, nok := intLiteral(y)
	if !ok || !nok || n != 0 {
		return nil, false, false
	}
	a := &atom{kind: present, old: r.old, steps: r.steps, emptyAsUnset: true}
	switch fn {
	case operators.Greater, operators.NotEquals:
		return a, false, true
	case operators.Equals, operators.LessEquals:
		return a, true, true
	}
	return nil, false, false
}

// sizeOf reads size(x) and x.size() with x a ref.
func sizeOf(e ast.Expr) (ref, bool) {
	fn, target, args, ok := call(e)
	if !ok || fn != "size" {
		return ref{}, false
	}
	switch {
	case target != nil && len(args) == 0:
		return refOf(target)
	case target == nil && len(args) == 1:
		return refOf(args[0])
	}
	return ref{}, false
}

func sameSteps(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// eval evaluates f with the atoms valued by world, with CEL's rules for
// errors: && and || are commutative and absorb an error where the other
// side decides.
func (f *formula) eval(world func(*atom) tv) tv {
	switch f.op {
	case "const":
		return truth(f.val)
	case "atom":
		return world(f.atom)
	case "not":
		switch v := f.args[0].eval(world); v {
		case tru:
			return fls
		case fls:
			return tru
		default:
			return v
		}
	case "and", "or":
		a, b := f.args[0].eval(world), f.args[1].eval(world)
		decides := truth(f.op == "or") // true decides an ||, false an &&
		switch {
		case a == decides || b == decides:
			return decides
		case a == errv || b == errv:
			return errv
		}
		return 1 - decides
	case "cond":
		switch f.args[0].eval(world) {
		case tru:
			return f.args[1].eval(world)
		case fls:
			return f.args[2].eval(world)
		}
		return errv
	case "eq":
		a, b := f.args[0].eval(world), f.args[1].eval(world)
		if a == errv || b == errv {
			return errv
		}
		return truth(a == b)
	}
	return errv
}
