package policy

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/decl"
)

// A CRD rule runs where the apiserver puts it: on its host node, with
// self the host's new value and oldSelf its old one, and, for a
// transition rule, only where the host exists in both objects and the
// apiserver pairs the two (object properties; map values by key; items
// of x-kubernetes-list-type: map lists by their keys). A policy sees the
// whole objects, so it must walk to every instance of the host and pair
// them itself. The walks below do so; the rule itself runs with self
// and oldSelf bound by one-element comprehensions ([v].all(self, ...)),
// since the policy's CEL environment has no cel.bind.

// walker renders walks over one version's structural schema; vars
// numbers the comprehension variables it introduces, so that nested ones
// never shadow each other or the rule's own.
type walker struct {
	root *schema.Structural
	vars int
	// twoVar is set where the target's CEL has two-variable
	// comprehensions (all(i, v, ...)): Kubernetes 1.33 on.
	twoVar bool
	// err is the first walk that has no exact form; the walks go on, so
	// that their callers stay simple, and the caller reports it.
	err error
}

func (w *walker) newVar(prefix string) string {
	w.vars++
	return fmt.Sprintf("%s_%d", prefix, w.vars)
}

// prop renders the lookup of the property name in x.
func prop(x, name string) string {
	if plainIdent.MatchString(name) && !reserved(name) {
		return x + "." + name
	}
	return x + "[" + celString(name) + "]"
}

// present renders "x holds the property name, not null" (semantics.md
// 2.1: a null property is absent).
func present(x, name string) string {
	return "(" + celString(name) + " in " + x + " && " + prop(x, name) + " != null)"
}

// rule renders the plan's rule with self the value x and oldSelf the
// value y (y empty: the rule reads no oldSelf).
func (w *walker) rule(rule, x, y string) string {
	out, err := forPlainValues(rule, x, y)
	if err != nil {
		w.fail(err.Error())
		return "false"
	}
	return out
}

// step is one step of a host path with the schema node it leads to and
// the node it leaves.
type step struct {
	decl.Step
	from, to *schema.Structural
}

func (w *walker) steps(host decl.Path) ([]step, error) {
	var out []step
	cur := w.root
	for i, st := range host {
		var next *schema.Structural
		switch {
		case !st.Entries:
			if p, ok := cur.Properties[st.Name]; ok {
				next = &p
			}
		case cur.Items != nil:
			next = cur.Items
		case cur.AdditionalProperties != nil:
			next = cur.AdditionalProperties.Structural
		}
		if next == nil {
			return nil, fmt.Errorf("%s: no such node in the schema", host[:i+1])
		}
		out = append(out, step{Step: st, from: cur, to: next})
		cur = next
	}
	return out, nil
}

// keysEqual renders "the items a and b of the list-map s have the same
// keys". A key property the item lacks compares as null, so that the
// rendering never fails on an item the schema's defaults did not fill.
func keysEqual(s *schema.Structural, a, b string) string {
	var terms []string
	for _, k := range s.XListMapKeys {
		terms = append(terms, "("+present(a, k)+" ? "+prop(a, k)+" : null) == ("+present(b, k)+" ? "+prop(b, k)+" : null)")
	}
	return strings.Join(terms, " && ")
}

func listType(s *schema.Structural) string {
	if s.XListType == nil {
		return "atomic"
	}
	return *s.XListType
}

// transition renders a rule that reads oldSelf: it holds for every
// instance of host that exists in both x and y, paired as the apiserver
// pairs them.
func (w *walker) transition(host decl.Path, x, y, rule string) (string, error) {
	steps, err := w.steps(host)
	if err != nil {
		return "", err
	}
	return w.paired(steps, x, y, func(x, y string) string { return w.rule(rule, x, y) })
}

func (w *walker) paired(steps []step, x, y string, body func(x, y string) string) (string, error) {
	if len(steps) == 0 {
		return body(x, y), nil
	}
	st, rest := steps[0], steps[1:]
	switch {
	case !st.Entries:
		inner, err := w.paired(rest, prop(x, st.Name), prop(y, st.Name), body)
		return "!" + present(x, st.Name) + " || !" + present(y, st.Name) + " || (" + inner + ")", err
	case st.from.AdditionalProperties != nil:
		k := w.newVar("k")
		nx, ny := x+"["+k+"]", y+"["+k+"]"
		inner, err := w.paired(rest, nx, ny, body)
		return x + ".all(" + k + ", !(" + k + " in " + y + ") || (" + orNull(st, rest, nx, orNull(st, rest, ny, inner)) + "))", err
	case listType(st.from) == "map":
		n, o := w.newVar("n"), w.newVar("o")
		inner, err := w.paired(rest, n, o, body)
		return x + ".all(" + n + ", " + y + ".all(" + o + ", !(" + keysEqual(st.from, n, o) + ") || (" + inner + ")))", err
	}
	return "", fmt.Errorf("the apiserver pairs no item of a list of type %s with its old value, so no rule that compares them runs there", listType(st.from))
}

// unchecked renders a rule that reads no oldSelf, such as a union's: it
// holds for every instance of host in x, except where the apiserver's
// validation ratcheting drops its errors on update: where the instance,
// or for an instance the apiserver does not pair (below items of atomic
// and set lists) the nearest paired node above it, is paired with its old
// value in y and equal to it (semantics.md 11.4).
func (w *walker) unchecked(host decl.Path, rule string) (string, error) {
	steps, err := w.steps(host)
	if err != nil {
		return "", err
	}
	body := func(x string) string { return "type(" + x + ") == null_type || (" + w.rule(rule, x, "") + ")" }
	onCreate := w.fresh(steps, "object", body)
	onUpdate := w.ratcheted(steps, w.root, "object", "oldObject", body)
	return "oldObject == null ? (" + onCreate + ") : (" + onUpdate + ")", nil
}

// fresh renders "body holds for every instance below x", with no old
// value to pair.
func (w *walker) fresh(steps []step, x string, body func(x string) string) string {
	if len(steps) == 0 {
		return body(x)
	}
	st, rest := steps[0], steps[1:]
	switch {
	case !st.Entries:
		return "!" + present(x, st.Name) + " || (" + w.fresh(rest, prop(x, st.Name), body) + ")"
	case st.from.AdditionalProperties != nil:
		k := w.newVar("k")
		v := x + "[" + k + "]"
		return x + ".all(" + k + ", " + orNull(st, rest, v, w.fresh(rest, v, body)) + ")"
	}
	e := w.newVar("e")
	return x + ".all(" + e + ", " + orNull(st, rest, e, w.fresh(rest, e, body)) + ")"
}

// orNull guards inner, a walk below the entry v, against a null entry,
// below which nothing exists. The entry's own rule sees the null.
func orNull(st step, rest []step, v, inner string) string {
	if st.to.Nullable && len(rest) > 0 {
		return "type(" + v + ") == null_type || (" + inner + ")"
	}
	return inner
}

// ratcheted is fresh where x is paired with its old value y.
func (w *walker) ratcheted(steps []step, at *schema.Structural, x, y string, body func(x string) string) string {
	if len(steps) == 0 {
		return w.unchanged(at, x, y) + " || (" + body(x) + ")"
	}
	st, rest := steps[0], steps[1:]
	switch {
	case !st.Entries:
		nx, ny := prop(x, st.Name), prop(y, st.Name)
		return "!" + present(x, st.Name) + " || (" + present(y, st.Name) + " ? (" + w.ratcheted(rest, st.to, nx, ny, body) + ") : (" + w.fresh(rest, nx, body) + "))"
	case st.from.AdditionalProperties != nil:
		k := w.newVar("k")
		nx, ny := x+"["+k+"]", y+"["+k+"]"
		paired := orNull(st, rest, nx, orNull(st, rest, ny, w.ratcheted(rest, st.to, nx, ny, body)))
		return x + ".all(" + k + ", " + k + " in " + y + " ? (" + paired + ") : (" + orNull(st, rest, nx, w.fresh(rest, nx, body)) + "))"
	case listType(st.from) == "map":
		n, o := w.newVar("n"), w.newVar("o")
		keys := keysEqual(st.from, n, o)
		paired := y + ".all(" + o + ", !(" + keys + ") || (" + w.ratcheted(rest, st.to, n, o, body) + "))"
		return x + ".all(" + n + ", " + y + ".exists(" + o + ", " + keys + ") ? (" + paired + ") : (" + w.fresh(rest, n, body) + "))"
	}
	// Items of atomic and set lists are not paired: the list is the
	// nearest paired node, and an unchanged list drops every error below.
	return w.unchanged(steps[0].from, x, y) + " || (" + w.fresh(steps, x, body) + ")"
}

// fail records the first walk that has no exact form.
func (w *walker) fail(detail string) {
	if w.err == nil {
		w.err = errors.New(detail)
	}
}
