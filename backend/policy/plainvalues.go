package policy

import (
	"fmt"
	"math"
	"regexp"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Where an admission policy's CEL values differ from a CRD rule's.
//
// A CRD rule sees the apiserver's schema-typed values
// (k8s.io/apiserver/pkg/cel/common.UnstructuredToVal): property names are
// selected in their escaped form (x__dash__y, __namespace__), and has()
// is false for a null property. An admission policy sees the plain JSON of
// the object (admission.LazyObject.CELValue adapts the unstructured maps
// with types.DefaultTypeAdapter): a property is a map key under its own
// name, and has() on a key holding null is true. forPlainValues rewrites a
// rule the compiler wrote for the first into one that means the same over
// the second:
//
//	x.a__dash__b            x["a-b"]
//	x.__namespace__         x["namespace"]
//	has(x.f)                ("f" in x && x["f"] != null)
//	x.?a.?b.hasValue()      the has() of each step, joined by &&
//
// so that a null property counts as absent, as semantics.md 2.1 says of
// stored objects. Every other construct means the same over both: the
// compiler compares lists item by item where a CRD rule's == would ignore
// order, and never relies on == seeing formats as values without the
// modifier that asks for it, which this back end refuses (validating.go).
// The rule is parsed without macros, so that has() and the comprehension
// macros stay calls and the rewritten tree prints back as written.

// plainIdent is a name a selection may keep: a CEL identifier that is
// not reserved (the escaping's list of reserved words is its own).
var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var macrolessParser = func() *parser.Parser {
	p, err := parser.NewParser(parser.Macros(), parser.EnableOptionalSyntax(true))
	if err != nil {
		panic(err)
	}
	return p
}()

// forPlainValues rewrites the CEL of a CRD rule for an admission
// policy's plain JSON values, with self and oldSelf replaced by the
// expressions that reach the host's new and old values from the policy's
// object and oldObject (oldSelf empty: the rule reads none). Replacing
// rather than binding keeps the path from object in every selection,
// which the cost estimator follows to the schema's sizes.
func forPlainValues(rule, self, oldSelf string) (string, error) {
	tree, errs := macrolessParser.Parse(common.NewTextSource(rule))
	if errs != nil && len(errs.GetErrors()) > 0 {
		return "", fmt.Errorf("cannot parse the rule %q: %s", rule, errs.ToDisplayString())
	}
	r := &rewriter{fac: ast.NewExprFactory(), next: maxID(tree.Expr()) + 1, vars: map[string]ast.Expr{}}
	for name, text := range map[string]string{"self": self, "oldSelf": oldSelf} {
		if text == "" {
			continue
		}
		t, errs := macrolessParser.Parse(common.NewTextSource(text))
		if errs != nil && len(errs.GetErrors()) > 0 {
			return "", fmt.Errorf("cannot parse %q: %s", text, errs.ToDisplayString())
		}
		r.vars[name] = t.Expr()
	}
	out, err := r.expr(tree.Expr())
	if err != nil {
		return "", fmt.Errorf("rule %q: %w", rule, err)
	}
	// One line: a policy's expressions are read as written, and the
	// compiler's rules are one line each.
	return parser.Unparse(out, tree.SourceInfo(), parser.WrapOnColumn(math.MaxInt32))
}

type rewriter struct {
	fac  ast.ExprFactory
	next int64
	// vars are the expressions that replace self and oldSelf, already
	// written for plain values.
	vars map[string]ast.Expr
}

func (r *rewriter) id() int64 { r.next++; return r.next }

func (r *rewriter) str(s string) ast.Expr { return r.fac.NewLiteral(r.id(), types.String(s)) }

// property renders the lookup of the property name in x.
func (r *rewriter) property(x ast.Expr, name string) ast.Expr {
	if plainIdent.MatchString(name) && !reserved(name) {
		return r.fac.NewSelect(r.id(), x, name)
	}
	return r.fac.NewCall(r.id(), "_[_]", x, r.str(name))
}

// present renders "x holds the property name, not null".
func (r *rewriter) present(x ast.Expr, name string) ast.Expr {
	in := r.fac.NewCall(r.id(), "@in", r.str(name), x)
	notNull := r.fac.NewCall(r.id(), "_!=_", r.property(x, name), r.fac.NewLiteral(r.id(), types.NullValue))
	return r.fac.NewCall(r.id(), "_&&_", in, notNull)
}

// unescaped returns the stored name of a property selected as field.
func unescaped(field string) (string, error) {
	name, ok := apiservercel.Unescape(field)
	if !ok {
		return "", fmt.Errorf("the selection %q is no escaped property name", field)
	}
	return name, nil
}

func (r *rewriter) expr(e ast.Expr) (ast.Expr, error) {
	switch e.Kind() {
	case ast.SelectKind:
		s := e.AsSelect()
		if s.IsTestOnly() {
			return nil, fmt.Errorf("unexpected presence test of %q", s.FieldName())
		}
		x, err := r.expr(s.Operand())
		if err != nil {
			return nil, err
		}
		name, err := unescaped(s.FieldName())
		if err != nil {
			return nil, err
		}
		return r.property(x, name), nil
	case ast.CallKind:
		return r.call(e)
	case ast.ListKind:
		l := e.AsList()
		elems, err := r.all(l.Elements())
		if err != nil {
			return nil, err
		}
		return r.fac.NewList(r.id(), elems, l.OptionalIndices()), nil
	case ast.IdentKind:
		if x, ok := r.vars[e.AsIdent()]; ok {
			return x, nil
		}
		if e.AsIdent() == "self" || e.AsIdent() == "oldSelf" {
			return nil, fmt.Errorf("the rule reads %s, which has no value here", e.AsIdent())
		}
		return e, nil
	case ast.MapKind, ast.StructKind, ast.ComprehensionKind:
		return nil, fmt.Errorf("unexpected %v in a compiled rule", e.Kind())
	}
	return e, nil
}

func (r *rewriter) all(es []ast.Expr) ([]ast.Expr, error) {
	out := make([]ast.Expr, len(es))
	for i, e := range es {
		var err error
		if out[i], err = r.expr(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *rewriter) call(e ast.Expr) (ast.Expr, error) {
	c := e.AsCall()
	switch {
	case c.FunctionName() == "has" && !c.IsMemberFunction() && len(c.Args()) == 1 && c.Args()[0].Kind() == ast.SelectKind:
		s := c.Args()[0].AsSelect()
		x, err := r.expr(s.Operand())
		if err != nil {
			return nil, err
		}
		name, err := unescaped(s.FieldName())
		if err != nil {
			return nil, err
		}
		return r.present(x, name), nil
	case c.FunctionName() == "hasValue" && c.IsMemberFunction() && len(c.Args()) == 0:
		return r.optionalChain(c.Target())
	case c.FunctionName() == "_?._":
		return nil, fmt.Errorf("an optional selection outside x.?a.?b.hasValue()")
	}
	args, err := r.all(c.Args())
	if err != nil {
		return nil, err
	}
	if c.IsMemberFunction() {
		target, err := r.expr(c.Target())
		if err != nil {
			return nil, err
		}
		return r.fac.NewMemberCall(r.id(), c.FunctionName(), target, args...), nil
	}
	return r.fac.NewCall(r.id(), c.FunctionName(), args...), nil
}

// optionalChain rewrites x.?a.?b (the target of hasValue()) into the
// presence of a below x and of b below x.a.
func (r *rewriter) optionalChain(e ast.Expr) (ast.Expr, error) {
	var names []string
	for e.Kind() == ast.CallKind && e.AsCall().FunctionName() == "_?._" {
		args := e.AsCall().Args()
		if len(args) != 2 || args[1].Kind() != ast.LiteralKind {
			return nil, fmt.Errorf("unexpected optional selection")
		}
		field, ok := args[1].AsLiteral().(types.String)
		if !ok {
			return nil, fmt.Errorf("unexpected optional selection")
		}
		name, err := unescaped(string(field))
		if err != nil {
			return nil, err
		}
		names = append([]string{name}, names...)
		e = args[0]
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("hasValue() of no optional selection")
	}
	x, err := r.expr(e)
	if err != nil {
		return nil, err
	}
	var out ast.Expr
	for _, name := range names {
		p := r.present(x, name)
		if out == nil {
			out = p
		} else {
			out = r.fac.NewCall(r.id(), "_&&_", out, p)
		}
		x = r.property(x, name)
	}
	return out, nil
}

// reserved reports whether name is a word CEL reserves, which no
// selection may use.
func reserved(name string) bool {
	escaped, ok := apiservercel.Escape(name)
	return !ok || escaped != name
}

// maxID is the largest expression id in e, so that new nodes get ids of
// their own.
func maxID(e ast.Expr) int64 {
	top := e.ID()
	visit := ast.NewExprVisitor(func(x ast.Expr) {
		if x.ID() > top {
			top = x.ID()
		}
	})
	ast.PostOrderVisit(e, visit)
	return top
}
