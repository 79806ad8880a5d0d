package ruleshape

import (
	"sort"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
)

// A rule without oldSelf may say how many of some properties of its node
// may be set (a group), or tie one property to a value of another (a tie):
//
//	[has(self.a), has(self.b)].filter(x, x).size() <= 1    group, at most one
//	(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1     group, exactly one
//	[has(self.a), has(self.b)].exists_one(x, x)            group, exactly one
//	!has(self.a) || !has(self.b)                            group, at most one
//	has(self.a) != has(self.b)                              group, exactly one
//	has(self.a) || has(self.b)                              group, at least one
//	self.type == 'A' ? has(self.a) : !has(self.a)           tie, both ways
//	!(has(self.a) && self.type != 'A')                      tie, a only when A
//	self.type != 'A' || has(self.a)                         tie, a required when A
//
// The boolean shapes are read by evaluating the rule over every choice of
// which properties are set (and, for a tie, of the other property's
// value: the one named, another, or none), so that any way of writing
// them reads alike. A test of emptiness (self.a != "", size(self.a) > 0)
// is read as presence, and the group or tie says so: a union counts an
// empty value as set (docs/semantics.md 11.2).

// Cardinality is how many of a group's members may be set.
type Cardinality uint8

const (
	AtMostOne Cardinality = iota + 1
	ExactlyOne
	AtLeastOne
)

// Group: of Members, Card may be set.
type Group struct {
	Members []string // sorted
	Card    Cardinality
	// Counted: the rule counts the members (filter, sum, !=), so that it
	// is a choice whatever its message says; a pair excluded by !has(a)
	// || !has(b) may also mean "b is not supported with a".
	Counted bool
	// EmptyAsUnset: a member's presence was read from a test of
	// emptiness, which counts an empty value as unset.
	EmptyAsUnset bool
}

// Tie: Member may be set only when Disc is Value (OnlyWhen), must be set
// when it is (RequiredWhen); DiscRequired: the rule fails where Disc is
// unset.
type Tie struct {
	Member, Disc, Value                  string
	OnlyWhen, RequiredWhen, DiscRequired bool
	EmptyAsUnset                         bool
}

// Choice is the union shape of one conjunct: a group or a tie.
type Choice struct {
	Group *Group
	Tie   *Tie
}

// maxMembers bounds the properties a boolean shape is evaluated over.
const maxMembers = 8

// unionShape reads one conjunct of a rule without oldSelf.
func unionShape(p Rule, e ast.Expr) (Choice, bool) {
	if g, ok := countShape(e); ok {
		return Choice{Group: g}, true
	}
	var as atoms
	f := build(p, e, &as)
	members, discs, ok := unionAtoms(as.list)
	if !ok {
		return Choice{}, false
	}
	if len(discs) == 0 {
		g, ok := presenceGroup(f, members)
		return Choice{Group: g}, ok
	}
	t, ok := readTie(f, members, discs)
	return Choice{Tie: t}, ok
}

// unionAtoms sorts the atoms of a formula into presence tests of the
// node's properties and comparisons of a property with a string; any
// other test makes the conjunct no union shape.
func unionAtoms(list []*atom) (members []*atom, discs []*atom, ok bool) {
	for _, a := range list {
		switch {
		case a.old || len(a.steps) != 1:
			return nil, nil, false
		case a.kind == present:
			members = append(members, a)
		case a.kind == is:
			discs = append(discs, a)
		default:
			return nil, nil, false
		}
	}
	return members, discs, len(members) > 0
}

// presenceGroup evaluates f over every choice of set members.
func presenceGroup(f *formula, members []*atom) (*Group, bool) {
	n := len(members)
	if n < 2 || n > maxMembers {
		return nil, false
	}
	allows, denies := make([]int, n+1), make([]int, n+1) // by the number of members set
	for bits := 0; bits < 1<<n; bits++ {
		w := func(a *atom) tv {
			for i, m := range members {
				if m == a {
					return truth(bits&(1<<i) != 0)
				}
			}
			return errv
		}
		if f.eval(w) == tru {
			allows[popcount(bits)]++
		} else {
			denies[popcount(bits)]++
		}
	}
	allowedBy := map[int]bool{}
	for k := range n + 1 {
		if allows[k] > 0 && denies[k] > 0 {
			// It depends on which members are set: no count of them.
			return nil, false
		}
		allowedBy[k] = allows[k] > 0
	}
	card, ok := cardinalityOf(allowedBy, n)
	if !ok {
		return nil, false
	}
	g := &Group{Card: card, Counted: card == ExactlyOne}
	for _, m := range members {
		g.Members = append(g.Members, m.steps[0])
		g.EmptyAsUnset = g.EmptyAsUnset || m.emptyAsUnset
	}
	sort.Strings(g.Members)
	return g, true
}

// cardinalityOf names the counts allowed, when they are one of the
// three.
func cardinalityOf(allowedBy map[int]bool, n int) (Cardinality, bool) {
	pattern := func(want func(k int) bool) bool {
		for k := 0; k <= n; k++ {
			if allowedBy[k] != want(k) {
				return false
			}
		}
		return true
	}
	switch {
	case pattern(func(k int) bool { return k <= 1 }):
		return AtMostOne, true
	case pattern(func(k int) bool { return k == 1 }):
		return ExactlyOne, true
	case pattern(func(k int) bool { return k >= 1 }):
		return AtLeastOne, true
	}
	return 0, false
}

func popcount(bits int) int {
	n := 0
	for ; bits != 0; bits &= bits - 1 {
		n++
	}
	return n
}

// readTie evaluates f over the member set or not, and the discriminator
// at the value named, another, or unset.
func readTie(f *formula, members, discs []*atom) (*Tie, bool) {
	d, v := discs[0].steps[0], discs[0].value
	for _, a := range discs {
		if a.steps[0] != d || a.value != v {
			return nil, false
		}
	}
	var m *atom
	for _, a := range members {
		switch {
		case a.steps[0] == d: // has(self.type): the discriminator's own presence
		case m != nil:
			return nil, false
		default:
			m = a
		}
	}
	if m == nil {
		return nil, false
	}
	denied := func(set bool, disc int) bool { // disc: 0 the value, 1 another, 2 unset
		return f.eval(func(a *atom) tv {
			switch {
			case a == m:
				return truth(set)
			case a.kind == present: // the discriminator's presence
				return truth(disc != 2)
			case disc == 2:
				return errv // no such key
			}
			return truth(disc == 0)
		}) != tru
	}
	if denied(true, 0) || denied(false, 1) {
		return nil, false // it forbids what a union allows
	}
	t := &Tie{Member: m.steps[0], Disc: d, Value: v, EmptyAsUnset: m.emptyAsUnset,
		OnlyWhen: denied(true, 1) && denied(true, 2), RequiredWhen: denied(false, 0), DiscRequired: denied(false, 2)}
	return t, t.OnlyWhen || t.RequiredWhen
}

// countShape reads the counting shapes: a filter of presences, or a sum
// of them, compared with a number, and exists_one.
func countShape(e ast.Expr) (*Group, bool) {
	fn, target, args, ok := call(e)
	if !ok {
		return nil, false
	}
	if fn == operators.ExistsOne && target != nil && len(args) == 2 && truthOf(args[1], args[0]) {
		if ms, ok := presences(target); ok {
			return &Group{Members: ms, Card: ExactlyOne, Counted: true}, true
		}
	}
	if len(args) != 2 {
		return nil, false
	}
	for i, side := range args {
		ms, ok := counted(side)
		n, nok := intLiteral(args[1-i])
		if !ok || !nok {
			continue
		}
		op := fn
		if i == 1 { // n OP count: read it as count OP' n
			op = map[string]string{operators.LessEquals: operators.GreaterEquals, operators.GreaterEquals: operators.LessEquals,
				operators.Less: operators.Greater, operators.Greater: operators.Less, operators.Equals: operators.Equals}[fn]
		}
		if card, ok := countCardinality(op, n); ok && len(ms) >= 2 {
			return &Group{Members: ms, Card: card, Counted: true}, true
		}
	}
	return nil, false
}

func countCardinality(op string, n int64) (Cardinality, bool) {
	switch {
	case op == operators.Equals && n == 1:
		return ExactlyOne, true
	case op == operators.LessEquals && n == 1, op == operators.Less && n == 2:
		return AtMostOne, true
	case op == operators.GreaterEquals && n == 1, op == operators.Greater && n == 0:
		return AtLeastOne, true
	}
	return 0, false
}

// counted reads the number of members set: [has(self.a), ...].filter(x,
// x).size(), size() of it, or (has(self.a) ? 1 : 0) + ...
func counted(e ast.Expr) ([]string, bool) {
	if r, ok := sizeArg(e); ok {
		fn, target, args, ok := call(r)
		if ok && fn == operators.Filter && target != nil && len(args) == 2 && truthOf(args[1], args[0]) {
			return presences(target)
		}
		return nil, false
	}
	var ms []string
	if !sumOfPresences(e, &ms) {
		return nil, false
	}
	sort.Strings(ms)
	return ms, true
}

// sizeArg reads size(x) or x.size() and gives x.
func sizeArg(e ast.Expr) (ast.Expr, bool) {
	fn, target, args, ok := call(e)
	switch {
	case !ok || fn != "size":
		return nil, false
	case target != nil && len(args) == 0:
		return target, true
	case target == nil && len(args) == 1:
		return args[0], true
	}
	return nil, false
}

// sumOfPresences reads a sum of has(self.m) ? 1 : 0.
func sumOfPresences(e ast.Expr, ms *[]string) bool {
	fn, _, args, ok := call(e)
	switch {
	case ok && fn == operators.Add && len(args) == 2:
		return sumOfPresences(args[0], ms) && sumOfPresences(args[1], ms)
	case ok && fn == operators.Conditional && len(args) == 3:
		r, ok := hasRef(args[0])
		one, oneOK := intLiteral(args[1])
		zero, zeroOK := intLiteral(args[2])
		if ok && oneOK && zeroOK && one == 1 && zero == 0 && !r.old && len(r.steps) == 1 {
			*ms = append(*ms, r.steps[0])
			return true
		}
	}
	return false
}

// truthOf reads the predicate of filter(x, x) or filter(x, x == true).
func truthOf(pred, v ast.Expr) bool {
	if v.Kind() != ast.IdentKind {
		return false
	}
	if isIdent(pred, v.AsIdent()) {
		return true
	}
	fn, _, args, ok := call(pred)
	if !ok || fn != operators.Equals || len(args) != 2 {
		return false
	}
	b, isBool := boolLiteral(args[1])
	return isIdent(args[0], v.AsIdent()) && isBool && b
}

// presences reads a list literal of has(self.m), giving the members.
func presences(e ast.Expr) ([]string, bool) {
	if e.Kind() != ast.ListKind {
		return nil, false
	}
	var ms []string
	for _, x := range e.AsList().Elements() {
		r, ok := hasRef(x)
		if !ok || r.old || len(r.steps) != 1 {
			return nil, false
		}
		ms = append(ms, r.steps[0])
	}
	sort.Strings(ms)
	return ms, len(ms) >= 2
}
