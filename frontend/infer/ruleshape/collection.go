package ruleshape

import (
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"

	"github.com/mut2cel/mut2cel/decl"
)

// The entries of a list or map are kept, or not added, by rules of a few
// shapes (R and S the same collection, one old and one new):
//
//	oldSelf.all(x, x in self)                        every old entry stays
//	self.all(x, x in oldSelf)                        no new entry appears
//	oldSelf.all(x, self.exists(y, y.k == x.k))       every old key k stays
//	oldSelf.all(k, k in self && self[k] == oldSelf[k])  every old key stays, with its value
//	size(self) >= size(oldSelf)                      never shorter
//
// What each means depends on the collection, which the caller reads: a
// membership test keeps the keys of a set or a map, and whole items of a
// list-map; a size keeps the keys of an atomic list, whose keys are its
// indices.

// Comparison says by what a collection shape compares entries.
type Comparison uint8

const (
	ByMember Comparison = iota // x in S
	ByKey                      // S.exists(y, y.k == x.k)
	ByValue                    // k in S && S[k] == R[k]
	BySize                     // size(S) >= size(R)
)

// Keys is one collection shape of a rule.
type Keys struct {
	Steps []string // the collection, from the rule's node
	Keep  decl.Constraints
	By    Comparison
	Key   string // the key property compared, for ByKey
}

// collectionShape reads e as one of the shapes, or reports it is none.
func collectionShape(e ast.Expr) (Keys, bool) {
	if s, ok := sizeShape(e); ok {
		return s, true
	}
	fn, target, args, ok := call(e)
	if !ok || fn != operators.All || target == nil || len(args) != 2 || args[0].Kind() != ast.IdentKind {
		return Keys{}, false
	}
	r, ok := refOf(target)
	if !ok {
		return Keys{}, false
	}
	v := args[0].AsIdent()
	s, h, key, ok := keptBody(args[1], v, r)
	if !ok {
		return Keys{}, false
	}
	keep := decl.Of(decl.NoAddItem)
	if r.old {
		keep = decl.Of(decl.NoRemoveItem)
	}
	if s.old == r.old || !sameSteps(s.steps, r.steps) {
		return Keys{}, false
	}
	return Keys{Steps: r.steps, Keep: keep, By: h, Key: key}, true
}

// keptBody reads the body of R.all(v, body): v in S, S.exists(w, w.k ==
// v.k), or v in S && S[v] == R[v].
func keptBody(body ast.Expr, v string, r ref) (ref, Comparison, string, bool) {
	if s, ok := membership(body, v); ok {
		return s, ByMember, "", true
	}
	fn, target, args, ok := call(body)
	if ok && fn == operators.LogicalAnd && len(args) == 2 {
		s, ok := membership(args[0], v)
		if ok && sameIndexed(args[1], v, r) {
			return s, ByValue, "", true
		}
	}
	if ok && fn == operators.Exists && target != nil && len(args) == 2 && args[0].Kind() == ast.IdentKind {
		s, ok := refOf(target)
		if key, same := sameKey(args[1], args[0].AsIdent(), v); ok && same {
			return s, ByKey, key, true
		}
	}
	return ref{}, 0, "", false
}

// membership reads v in S.
func membership(e ast.Expr, v string) (ref, bool) {
	fn, _, args, ok := call(e)
	if !ok || fn != operators.In || len(args) != 2 || !isIdent(args[0], v) {
		return ref{}, false
	}
	return refOf(args[1])
}

// sameIndexed reads S[v] == R[v], in either order.
func sameIndexed(e ast.Expr, v string, r ref) bool {
	fn, _, args, ok := call(e)
	if !ok || fn != operators.Equals || len(args) != 2 {
		return false
	}
	a, aok := indexed(args[0], v)
	b, bok := indexed(args[1], v)
	return aok && bok && a.old != b.old && sameSteps(a.steps, b.steps) && sameSteps(a.steps, r.steps)
}

// indexed reads X[v] with X a ref.
func indexed(e ast.Expr, v string) (ref, bool) {
	fn, _, args, ok := call(e)
	if !ok || fn != operators.Index || len(args) != 2 || !isIdent(args[1], v) {
		return ref{}, false
	}
	return refOf(args[0])
}

// sameKey reads w.k == v.k, in either order, and gives k.
func sameKey(e ast.Expr, w, v string) (string, bool) {
	fn, _, args, ok := call(e)
	if !ok || fn != operators.Equals || len(args) != 2 {
		return "", false
	}
	a, aok := fieldOf(args[0])
	b, bok := fieldOf(args[1])
	if !aok || !bok || a[1] != b[1] || !(a[0] == w && b[0] == v || a[0] == v && b[0] == w) {
		return "", false
	}
	return a[1], true
}

// fieldOf reads x.k, x an identifier, as {x, k}.
func fieldOf(e ast.Expr) ([2]string, bool) {
	if e.Kind() != ast.SelectKind || e.AsSelect().IsTestOnly() {
		return [2]string{}, false
	}
	sel := e.AsSelect()
	if sel.Operand().Kind() != ast.IdentKind {
		return [2]string{}, false
	}
	return [2]string{sel.Operand().AsIdent(), sel.FieldName()}, true
}

func isIdent(e ast.Expr, name string) bool {
	return e.Kind() == ast.IdentKind && e.AsIdent() == name
}

// sizeShape reads size(self.p) OP size(oldSelf.p), in either order.
func sizeShape(e ast.Expr) (Keys, bool) {
	fn, _, args, ok := call(e)
	if !ok || len(args) != 2 {
		return Keys{}, false
	}
	a, aok := sizeOf(args[0])
	b, bok := sizeOf(args[1])
	if !aok || !bok || a.old == b.old || !sameSteps(a.steps, b.steps) {
		return Keys{}, false
	}
	if a.old { // read it as new OP old
		fn = map[string]string{operators.GreaterEquals: operators.LessEquals, operators.LessEquals: operators.GreaterEquals,
			operators.Equals: operators.Equals}[fn]
	}
	keep := map[string]decl.Constraints{
		operators.GreaterEquals: decl.Of(decl.NoRemoveItem),
		operators.LessEquals:    decl.Of(decl.NoAddItem),
		operators.Equals:        decl.KeyConstraints,
	}[fn]
	if keep == 0 {
		return Keys{}, false
	}
	return Keys{Steps: a.steps, Keep: keep, By: BySize}, true
}
