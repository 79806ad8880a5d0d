package ruleshape

import "github.com/google/cel-go/common/ast"

// Part is one requirement of a rule: a rule is split at its top-level &&
// operators, and each part is read on its own, so that a rule that says
// two things ("self.a == oldSelf.a && self.b == oldSelf.b") says both.
type Part struct {
	rule Rule
	expr ast.Expr
}

// Parts splits the rule at its top-level && operators.
func (r Rule) Parts() []Part {
	var out []Part
	for _, e := range conjuncts(r.expr) {
		out = append(out, Part{rule: r, expr: e})
	}
	return out
}

// ReadsOld reports whether the part mentions oldSelf: a part that does is
// read as transitions or a collection shape, one that does not as a
// union shape.
func (p Part) ReadsOld() bool { return readsOld(p.expr) }

// Transitions reads the part as what it does to each field it compares
// across the update (transition.go). onNode says whether the rule's own
// node can be a target (not for the schema root, which always exists);
// optional says the rule sets optionalOldSelf. ok is false for a part
// that reads oldSelf in a way the table does not know.
func (p Part) Transitions(onNode, optional bool) (trs []Transition, ok bool) {
	return transitions(p.rule, p.expr, onNode, optional)
}

// Collection reads the part as a shape that keeps the entries of a list
// or map (collection.go).
func (p Part) Collection() (Keys, bool) { return collectionShape(p.expr) }

// Union reads the part as a union shape (unionshape.go).
func (p Part) Union() (Choice, bool) { return unionShape(p.rule, p.expr) }
