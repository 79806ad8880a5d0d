package costest

import (
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// sizedNodes lists the schema nodes whose size enters the estimated cost
// of one rule on the node at host: the lists and maps around host, whose
// bounds make the rule's cardinality, and the strings, lists and maps the
// rule reads in a way the estimator charges by size.
//
// The estimator charges by size a comprehension over a list or map, ==
// and != on strings, lists and maps, membership in a list (by the list's
// length, not its items'), and a string passed to any other function
// (comparisons, startsWith, matches, ...). It charges a constant for
// selecting a field, indexing, has() and size(), for == on objects, and for
// membership in a map, whose lookups are hashed.
// A string that a rule only compares as part of its enclosing object's ==
// is therefore not listed, and a bound on it would narrow the schema for
// nothing.
//
// The rule is parsed, not type-checked, in the environment it is compiled
// in, so that macros expand as the apiserver expands them. A rule that does
// not parse lists the cardinality nodes only.
func sizedNodes(root *apiextensionsv1.JSONSchemaProps, host []string, rule string, env *environment.EnvSet) [][]string {
	var out [][]string
	seen := map[string]bool{}
	add := func(r *nodeRef) {
		if r == nil || !sizeable(r.s) {
			return
		}
		if k := nodeKey(r.path); !seen[k] {
			seen[k] = true
			out = append(out, r.path)
		}
	}
	n := root
	for i := 0; i < len(host); i++ {
		if n.Type == "array" || isMap(n) {
			add(&nodeRef{path: append([]string(nil), host[:i]...), s: n})
		}
		n, i = child(n, host, i)
	}
	parsed, iss := env.NewExpressionsEnv().Parse(rule)
	if iss.Err() != nil {
		return out
	}
	self := &nodeRef{path: host, s: n}
	w := refWalker{add: add}
	w.expr(parsed.NativeRep().Expr(), map[string]*nodeRef{"self": self, "oldSelf": self})
	return out
}

// nodeRef is a schema node an expression stands for.
type nodeRef struct {
	path []string
	s    *apiextensionsv1.JSONSchemaProps
}

// sizeable reports whether the estimator can charge by the size of values
// of s: strings, lists and maps.
func sizeable(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.Type == "string" || s.Type == "array" || isMap(s)
}

func isMap(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil
}

// refWalker follows the variables of a parsed rule to the schema nodes
// they stand for.
type refWalker struct {
	add func(*nodeRef)
}

// expr visits e and returns the schema node its value comes from, if any.
func (w refWalker) expr(e ast.Expr, vars map[string]*nodeRef) *nodeRef {
	switch e.Kind() {
	case ast.IdentKind:
		return vars[e.AsIdent()]
	case ast.SelectKind:
		sel := e.AsSelect()
		operand := w.expr(sel.Operand(), vars)
		if sel.IsTestOnly() {
			return nil
		}
		return property(operand, sel.FieldName())
	case ast.CallKind:
		return w.call(e.AsCall(), vars)
	case ast.ComprehensionKind:
		w.comprehension(e.AsComprehension(), vars)
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.expr(el, vars)
		}
	case ast.MapKind:
		for _, entry := range e.AsMap().Entries() {
			w.expr(entry.AsMapEntry().Key(), vars)
			w.expr(entry.AsMapEntry().Value(), vars)
		}
	}
	return nil
}

func (w refWalker) call(c ast.CallExpr, vars map[string]*nodeRef) *nodeRef {
	var operands []*nodeRef
	if c.IsMemberFunction() {
		operands = append(operands, w.expr(c.Target(), vars))
	}
	for _, a := range c.Args() {
		operands = append(operands, w.expr(a, vars))
	}
	switch c.FunctionName() {
	case operators.Index:
		return entries(operands[0])
	case overloads.Size, operators.LogicalAnd, operators.LogicalOr, operators.LogicalNot, operators.Conditional:
		return nil
	case operators.Equals, operators.NotEquals:
		for _, o := range operands {
			w.add(o)
		}
	case operators.In:
		if operands[1] != nil && operands[1].s.Type == "array" {
			w.add(operands[1])
		}
	default:
		for _, o := range operands {
			if o != nil && o.s.Type == "string" {
				w.add(o)
			}
		}
	}
	return nil
}

// comprehension charges the iteration range and binds the iteration
// variables: for a list, the (second) variable is an item; for a map, the
// second variable is a value and the first a key, which has no node of its
// own.
func (w refWalker) comprehension(c ast.ComprehensionExpr, vars map[string]*nodeRef) {
	rng := w.expr(c.IterRange(), vars)
	w.add(rng)
	inner := make(map[string]*nodeRef, len(vars)+3)
	for k, v := range vars {
		inner[k] = v
	}
	inner[c.AccuVar()] = nil
	inner[c.IterVar()] = nil
	entry := entries(rng)
	switch {
	case c.HasIterVar2():
		inner[c.IterVar2()] = entry
	case rng != nil && rng.s.Type == "array":
		inner[c.IterVar()] = entry
	}
	w.expr(c.AccuInit(), vars)
	w.expr(c.LoopCondition(), inner)
	w.expr(c.LoopStep(), inner)
	w.expr(c.Result(), inner)
}

// property is the node of property name (as escaped in CEL) of the object
// node r.
func property(r *nodeRef, escaped string) *nodeRef {
	if r == nil || r.s.Properties == nil {
		return nil
	}
	name, ok := apiservercel.Unescape(escaped)
	if !ok {
		name = escaped
	}
	p, ok := r.s.Properties[name]
	if !ok {
		return nil
	}
	return &nodeRef{path: appendStep(r.path, "properties", name), s: &p}
}

// entries is the node of the items or map values of r.
func entries(r *nodeRef) *nodeRef {
	switch {
	case r == nil:
		return nil
	case r.s.Items != nil && r.s.Items.Schema != nil:
		return &nodeRef{path: appendStep(r.path, "items"), s: r.s.Items.Schema}
	case isMap(r.s):
		return &nodeRef{path: appendStep(r.path, "additionalProperties"), s: r.s.AdditionalProperties.Schema}
	}
	return nil
}
