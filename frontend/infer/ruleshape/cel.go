package ruleshape

import (
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Rules are read as cel-go parses them, never as text. The parser runs
// without macros, so that has(), all(), exists_one() and filter() stay
// the calls they are written as and a shape can be matched on them; the
// rule is not type-checked, since only its shape matters here and the
// apiserver has already compiled every published rule.

// ruleParser parses rules; optional syntax (oldSelf.?x, hasValue()) is on,
// as in the apiserver's environment.
var ruleParser = func() *parser.Parser {
	p, err := parser.NewParser(parser.Macros(), parser.EnableOptionalSyntax(true))
	if err != nil {
		panic(err)
	}
	return p
}()

// maxRuleLength bounds the rules read: the apiserver takes longer ones,
// but no shape the table knows needs that much, and the parser's work
// grows with the text.
const maxRuleLength = 4096

// Rule is a published rule as cel-go parses it, with what unparsing
// needs.
type Rule struct {
	expr ast.Expr
	info *ast.SourceInfo
}

// Parse parses a rule, or reports that it does not parse.
func Parse(text string) (Rule, bool) {
	if len(text) > maxRuleLength {
		return Rule{}, false
	}
	tree, errs := ruleParser.Parse(common.NewTextSource(text))
	if errs != nil && len(errs.GetErrors()) > 0 {
		return Rule{}, false
	}
	return Rule{tree.Expr(), tree.SourceInfo()}, true
}

// text unparses e, to name an expression the table does not read.
func (p Rule) text(e ast.Expr) string {
	s, err := parser.Unparse(e, p.info)
	if err != nil {
		return "?"
	}
	return s
}

// ref is a selection of properties from self or oldSelf: oldSelf.a.b is
// {old: true, steps: [a b]}; self alone has no steps. Names are
// unescaped as the apiserver escapes them (__namespace__ is namespace).
type ref struct {
	old   bool
	steps []string
}

// refOf reads e as a ref.
func refOf(e ast.Expr) (ref, bool) {
	var steps []string
	for e.Kind() == ast.SelectKind {
		sel := e.AsSelect()
		if sel.IsTestOnly() {
			return ref{}, false
		}
		name, ok := apiservercel.Unescape(sel.FieldName())
		if !ok {
			return ref{}, false
		}
		steps = append([]string{name}, steps...)
		e = sel.Operand()
	}
	if e.Kind() != ast.IdentKind {
		return ref{}, false
	}
	switch e.AsIdent() {
	case "self":
		return ref{steps: steps}, true
	case "oldSelf":
		return ref{old: true, steps: steps}, true
	}
	return ref{}, false
}

// optRefOf reads a selection through optional steps (self.?a.?b, as
// optional types spell it) as a ref; a selection without one is no
// optional selection.
func optRefOf(e ast.Expr) (ref, bool) {
	var steps []string
	optional := false
	for {
		name, operand, opt, ok := step(e)
		if !ok {
			break
		}
		steps = append([]string{name}, steps...)
		optional = optional || opt
		e = operand
	}
	r, ok := refOf(e)
	if !ok || !optional {
		return ref{}, false
	}
	r.steps = append(r.steps, steps...)
	return r, true
}

// step reads one selection, x.name or x.?name, unescaping the name.
func step(e ast.Expr) (name string, operand ast.Expr, optional, ok bool) {
	if fn, _, args, isCall := call(e); isCall && fn == operators.OptSelect && len(args) == 2 {
		name, ok = stringLiteral(args[1])
		operand, optional = args[0], true
	} else if e.Kind() == ast.SelectKind && !e.AsSelect().IsTestOnly() {
		name, operand, ok = e.AsSelect().FieldName(), e.AsSelect().Operand(), true
	}
	if !ok {
		return "", nil, false, false
	}
	name, ok = apiservercel.Unescape(name)
	return name, operand, optional, ok
}

// call returns e's function name, target and arguments when e is a call.
func call(e ast.Expr) (string, ast.Expr, []ast.Expr, bool) {
	if e.Kind() != ast.CallKind {
		return "", nil, nil, false
	}
	c := e.AsCall()
	var target ast.Expr
	if c.IsMemberFunction() {
		target = c.Target()
	}
	return c.FunctionName(), target, c.Args(), true
}

// hasRef reads has(x) and gives x as a ref.
func hasRef(e ast.Expr) (ref, bool) {
	fn, target, args, ok := call(e)
	if !ok || fn != operators.Has || target != nil || len(args) != 1 {
		return ref{}, false
	}
	return refOf(args[0])
}

// stringLiteral reads a string literal.
func stringLiteral(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// intLiteral reads an integer literal.
func intLiteral(e ast.Expr) (int64, bool) {
	if e.Kind() != ast.LiteralKind {
		return 0, false
	}
	i, ok := e.AsLiteral().(types.Int)
	return int64(i), ok
}

// isNull reads the literal null.
func isNull(e ast.Expr) bool {
	if e.Kind() != ast.LiteralKind {
		return false
	}
	_, ok := e.AsLiteral().(types.Null)
	return ok
}

// conjuncts splits e at its top-level && operators: each part is a
// requirement of its own.
func conjuncts(e ast.Expr) []ast.Expr {
	fn, _, args, ok := call(e)
	if ok && fn == operators.LogicalAnd && len(args) == 2 {
		return append(conjuncts(args[0]), conjuncts(args[1])...)
	}
	return []ast.Expr{e}
}

// readsOld reports whether e mentions oldSelf anywhere.
func readsOld(e ast.Expr) bool {
	found := false
	visit(e, func(x ast.Expr) {
		if x.Kind() == ast.IdentKind && x.AsIdent() == "oldSelf" {
			found = true
		}
	})
	return found
}

// visit calls f on e and every expression inside it.
func visit(e ast.Expr, f func(ast.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e.Kind() {
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() {
			visit(c.Target(), f)
		}
		for _, a := range c.Args() {
			visit(a, f)
		}
	case ast.SelectKind:
		visit(e.AsSelect().Operand(), f)
	case ast.ListKind:
		for _, x := range e.AsList().Elements() {
			visit(x, f)
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		for _, x := range []ast.Expr{c.IterRange(), c.AccuInit(), c.LoopCondition(), c.LoopStep(), c.Result()} {
			visit(x, f)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			if en.Kind() == ast.MapEntryKind {
				visit(en.AsMapEntry().Key(), f)
				visit(en.AsMapEntry().Value(), f)
			}
		}
	}
}
