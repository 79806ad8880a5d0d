package crdrules

import (
	"fmt"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/plan"
)

// exprGen renders CEL expressions over pairs of values: x is always the new
// value (self) and y the old one (oldSelf).
type exprGen struct {
	// twoVarComprehensions is true where the target's CEL environment has
	// all(i, v, ...) (environment 1.32, so Kubernetes 1.33 for new rules).
	twoVarComprehensions bool
	// vars numbers comprehension variables so nested ones never shadow.
	vars int
	// formatsAsValues: the declaration being written compares formatted
	// strings as the apiserver's CEL values (plan.Rule.FormatsAsValues).
	formatsAsValues bool
	// givenMaxItems are the maxItems given for lists, by path, and added
	// those indexBound took from them (bounds.go).
	givenMaxItems map[string]int64
	added         map[string]plan.Bound
}

// inexpressible is returned when no exact CEL form exists; the writer turns
// it into a problem on the declaration, with the reason. node, where
// set, is the schema path the detail is about, for reasons merged by
// path (oneVersionRequirement).
type inexpressible struct{ reason, detail, node string }

func (e *inexpressible) Error() string { return e.detail }

func cannot(reason, format string, args ...interface{}) error {
	return &inexpressible{reason: reason, detail: fmt.Sprintf(format, args...)}
}

func (g *exprGen) newVar(prefix string) string {
	g.vars++
	return fmt.Sprintf("%s%d", prefix, g.vars)
}

// sel renders x.name with the Kubernetes CEL escaping of property names.
func sel(x, name string) (string, error) { return selWith(x, ".", name) }

// selWith renders the selection of name from x with the operator op: "."
// or, for an optional selection, ".?". A name without an escape is a
// reason, returned with the unescaped selection, so that a caller can go
// on to find the other reasons.
func selWith(x, op, name string) (string, error) {
	escaped, ok := apiservercel.Escape(name)
	if !ok {
		return x + op + name, cannot(diag.ReasonUnescapableName, "property name %q cannot be named in a CEL rule (the Kubernetes escaping has no form for it), so no rule above it can read it; rename the property or move the declaration", name)
	}
	return x + op + escaped, nil
}

// isNull renders "x is null". x == null compiles only for objects; the
// type test compiles for every type, in every supported environment.
func isNull(x string) string {
	return "type(" + x + ") == null_type"
}

// hasChain renders "the properties names... are present below x", where x
// may be null when nullable is set.
//
//	has(x.a) && has(x.a.b)
//	x.?a.?b.?c.hasValue()                        three properties or more
//	type(x) != null_type && has(x.a) && has(x.a.b)
//
// has(x.a) && has(x.a.b) && has(x.a.b.c) looks x.a up three times and x.a.b
// twice, and the apiserver's CEL rebuilds the map of an object's property
// schemas on every lookup; the optional chain looks each property up once.
// The cost estimate agrees from three properties on (an Immutable presence
// rule over three costs 11 against 13, over four 13 against 21), while
// over two the has() form is cheaper (7 against 9), so shorter chains keep
// it. Optional types compile in every supported environment.
func hasChain(x string, names []string, nullable bool) (string, error) {
	var terms []string
	if nullable {
		terms = append(terms, "type("+x+") != null_type")
	}
	var errs error
	if len(names) >= 3 {
		cur := x
		for _, name := range names {
			var err error
			cur, err = selWith(cur, ".?", name)
			errs = joinReasons(errs, err)
		}
		return strings.Join(append(terms, cur+".hasValue()"), " && "), errs
	}
	cur := x
	for _, name := range names {
		next, err := sel(cur, name)
		errs = joinReasons(errs, err)
		terms = append(terms, "has("+next+")")
		cur = next
	}
	return strings.Join(terms, " && "), errs
}

// presence builds the presence check of a property reached from its scope by
// names (semantics.md 3.2); a null scope has no properties. Cost: 2 x
// len(names) lookups, constant.
//
//	Immutable:  (has(x.a) && has(x.a.b)) == (has(y.a) && has(y.a.b))
//	AddOnly:    !(has(y.a) && has(y.a.b)) || (has(x.a) && has(x.a.b))
//	RemoveOnly: !(has(x.a) && has(x.a.b)) || (has(y.a) && has(y.a.b))
//
// and with the optional chains of hasChain from three properties on.
func presence(m plan.Mode, x, y string, names []string, nullable bool) (string, error) {
	nx, err := hasChain(x, names, nullable)
	ny, _ := hasChain(y, names, nullable)
	nx, ny = paren(nx), paren(ny)
	switch m {
	case plan.AddOnly:
		return "!" + ny + " || " + nx, err
	case plan.RemoveOnly:
		return "!" + nx + " || " + ny, err
	}
	return nx + " == " + ny, err
}
