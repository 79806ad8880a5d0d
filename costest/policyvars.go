package costest

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// Variable is one variable of a policy: expressions read its value as
// variables.<Name>. The apiserver evaluates it lazily, when an expression
// first reads it, and charges that evaluation to the expression.
type Variable struct{ Name, Expression string }

// Policy is what EstimatePolicy estimates: a policy's variables, in
// order (one may read those before it), and its validations.
type Policy struct {
	Variables   []Variable
	Expressions []string
}

// policyVars are the compiled variables of one policy.
type policyVars struct {
	// paths lead, for a variable that holds a value of the resource,
	// from object or oldObject to the node of that value (a variable
	// that maps the entries of a list by key holds values of the list's
	// items, as the list does), so that sizes read through the variable
	// are the schema's.
	paths map[string][]string
	// cost is each variable's own estimate, refs the variables its
	// expression reads.
	cost map[string]uint64
	refs map[string][]string
	errs map[string]string
	// maps are the variables that hold a CEL map (transformMapEntry):
	// variables are declared dyn, and the estimator, not knowing the
	// type, charges a test k in variables.m as a scan of a list.
	maps map[string]bool
}

// readPath reads what a variable holds: a chain of selections,
// optional selections and orValue() from object, oldObject or another
// variable names a node of the schema; transformMapEntry() over one maps
// its entries.
func readPath(e ast.Expr, paths map[string][]string) []string {
	switch e.Kind() {
	case ast.IdentKind:
		if n := e.AsIdent(); n == "object" || n == "oldObject" {
			return []string{n}
		}
	case ast.SelectKind:
		s := e.AsSelect()
		if op := s.Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == "variables" {
			return paths[s.FieldName()]
		}
		if base := readPath(s.Operand(), paths); base != nil {
			return append(append([]string{}, base...), s.FieldName())
		}
	case ast.CallKind:
		c := e.AsCall()
		switch {
		case c.FunctionName() == "_?._" && len(c.Args()) == 2 && c.Args()[1].Kind() == ast.LiteralKind:
			name, ok := c.Args()[1].AsLiteral().(types.String)
			if base := readPath(c.Args()[0], paths); ok && base != nil {
				return append(append([]string{}, base...), string(name))
			}
		case c.FunctionName() == "orValue" && c.IsMemberFunction():
			return readPath(c.Target(), paths)
		}
	case ast.ComprehensionKind:
		// transformMapEntry(i, e, {KEY: e}) over a list: a map whose
		// values are the list's items, as many as it has.
		return readPath(e.AsComprehension().IterRange(), paths)
	}
	return nil
}

// variablesRead lists the variables e reads, each once, in order.
func variablesRead(e ast.Expr) []string {
	var out []string
	seen := map[string]bool{}
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() != ast.SelectKind {
			return
		}
		s := x.AsSelect()
		if op := s.Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == "variables" && !seen[s.FieldName()] {
			seen[s.FieldName()] = true
			out = append(out, s.FieldName())
		}
	}))
	return out
}

// compileVariables compiles and estimates the variables of p, in order.
func compileVariables(env *cel.Env, vars []Variable, estimator policyCosts, sizes *policySizes) *policyVars {
	pv := &policyVars{paths: map[string][]string{}, cost: map[string]uint64{}, refs: map[string][]string{}, errs: map[string]string{}, maps: map[string]bool{}}
	sizes.vars = pv
	for _, v := range vars {
		checked, issues := env.Compile(v.Expression)
		if issues != nil && issues.Err() != nil {
			pv.errs[v.Name] = issues.Err().Error()
			continue
		}
		if path := readPath(checked.NativeRep().Expr(), pv.paths); path != nil {
			pv.paths[v.Name] = path
		}
		pv.maps[v.Name] = checked.NativeRep().Expr().Kind() == ast.ComprehensionKind && checked.OutputType().Kind() == types.MapKind
		pv.refs[v.Name] = variablesRead(checked.NativeRep().Expr())
		est, err := env.EstimateCost(checked, estimator)
		if err != nil {
			pv.errs[v.Name] = "cost estimation failed: " + err.Error()
			continue
		}
		pv.cost[v.Name] = est.Max
	}
	return pv
}

// charged is the cost of the variables e reads, and of those they read,
// each once: what evaluating e may add to its own cost.
func (pv *policyVars) charged(refs []string, seen map[string]bool) (uint64, string) {
	var total uint64
	for _, name := range refs {
		if seen[name] {
			continue
		}
		seen[name] = true
		if err, ok := pv.errs[name]; ok {
			return 0, "variable " + name + ": " + err
		}
		more, err := pv.charged(pv.refs[name], seen)
		if err != "" {
			return 0, err
		}
		total = sum(sum(total, pv.cost[name]), more)
	}
	return total, ""
}
