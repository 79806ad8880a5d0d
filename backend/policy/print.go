package policy

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/plan"
)

// A policy sees the stored JSON of objects: object and oldObject are the
// plain maps the apiserver decoded, pruned and defaulted
// (admission.LazyObject), where a property is a map key under its own
// name, a null property is a key holding null, and == compares JSON
// values (in order for every list). The printer says the checks of a plan
// over those values, as a CRD rule says them over the apiserver's
// schema-typed values, and meaning the same (docs/semantics.md): a null
// property counts as absent (2.1), so every test of a property reads it
// with optional selection, under which a property that is absent, null,
// or below an absent or null one, reads alike:
//
//	x.?a.?b.hasValue()            b is present below a (b never null)
//	x.?a.?b.orValue(null)         b's value, or null where it is absent
//
// and a value read past such a test is read plainly (x.a.b).

// printer writes the checks of one version of a plan.
type printer struct {
	root *crd.Node
	// twoVar is set where the target's CEL has two-variable
	// comprehensions (all(i, v, ...), transformMapEntry): Kubernetes
	// 1.33 on.
	twoVar bool
	// given are the maxItems given for lists, by path, which an index
	// comparison below 1.33 enumerates (plan.Version.Given).
	given map[string]int64
	vars  *variables
	// names numbers the comprehension variables of the expression being
	// written, so that nested ones never shadow each other.
	names map[string]int
	// err is the first check without an exact expression; the printer
	// goes on, so that its callers stay simple, and the caller reports it.
	err error
}

func newPrinter(root *crd.Node, p *plan.Plan, v plan.Version) *printer {
	return &printer{root: root, twoVar: !p.KubeVersion.Less(plan.KubeVersion{Major: 1, Minor: 33}),
		given: v.GivenMaxItems(), vars: &variables{byExpr: map[string]string{}, taken: map[string]bool{}}}
}

// newVar names a comprehension variable: e, e2, e3, ...
func (p *printer) newVar(prefix string) string {
	p.names[prefix]++
	if n := p.names[prefix]; n > 1 {
		return fmt.Sprintf("%s%d", prefix, n)
	}
	return prefix
}

// fail records the first check without an exact expression.
func (p *printer) fail(format string, args ...interface{}) {
	if p.err == nil {
		p.err = errors.New(fmt.Sprintf(format, args...))
	}
}

// ident is a name a selection may keep: a CEL identifier that is not
// reserved (the escaping's list of reserved words is its own).
var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func plainName(name string) bool {
	if !ident.MatchString(name) {
		return false
	}
	escaped, ok := apiservercel.Escape(name)
	return ok && escaped == name
}

// prop selects the property name of x: x.name, or x['name'] where name
// is no identifier CEL allows.
func prop(x, name string) string {
	if plainName(name) {
		return x + "." + name
	}
	return x + "[" + celString(name) + "]"
}

// optProp selects the property name of x as an optional: x.?name, or
// x[?'name'].
func optProp(x, name string) string {
	if plainName(name) {
		return x + ".?" + name
	}
	return x + "[?" + celString(name) + "]"
}

// chain selects the properties names below x as an optional.
func chain(x string, names []string) string {
	for _, n := range names {
		x = optProp(x, n)
	}
	return x
}

// present renders "the properties names, the last of which is the node
// last, are present below x and the last is not null": the absent and
// the null alike fail it, and so does a null x.
func present(x string, names []string, last *crd.Node) string {
	if last.Schema.Nullable {
		return chain(x, names) + ".orValue(null) != null"
	}
	return chain(x, names) + ".hasValue()"
}

// absent is the negation of present: the property is absent or null.
func absent(x string, names []string, last *crd.Node) string {
	if last.Schema.Nullable {
		return chain(x, names) + ".orValue(null) == null"
	}
	return "!" + chain(x, names) + ".hasValue()"
}

// valueOrNull renders the value of the property below x, or null where
// it is absent.
func valueOrNull(x string, names []string) string {
	return chain(x, names) + ".orValue(null)"
}

// valueOrDynNull is valueOrNull for a value read further: the type
// checker takes the type of orValue(null) for null, which nothing can be
// selected from; dyn(null) keeps the value's own.
func valueOrDynNull(x string, names []string) string {
	return chain(x, names) + ".orValue(dyn(null))"
}

// selectAll selects the properties names below x plainly, for a value
// known to be there.
func selectAll(x string, names []string) string {
	for _, n := range names {
		x = prop(x, n)
	}
	return x
}

// propertyNames lists the property names from the node from down to to;
// only properties lie between them.
func propertyNames(from, to *crd.Node) []string {
	var names []string
	for _, c := range from.Between(to) {
		names = append(names, c.Name())
	}
	return names
}

// paren wraps a compound expression so it can be an operand.
func paren(e string) string {
	if strings.ContainsAny(e, " ") {
		return "(" + e + ")"
	}
	return e
}

// or joins terms with ||, leaving out those that are false; one that is
// true makes it true.
func or(terms ...string) string {
	var kept []string
	for _, t := range terms {
		if t == "true" {
			return "true"
		}
		if t != "false" && t != "" {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return "false"
	}
	return strings.Join(kept, " || ")
}
