package policy

import (
	"slices"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/plan"
)

// A union's check reads no old value: the policy checks it on create, at
// every instance of its node, and on update except where the apiserver's
// validation ratcheting would drop its errors: where the instance, or for
// an instance the apiserver does not pair (below items of atomic and set
// lists) the nearest paired node above it, is paired with its old value
// and equal to it (semantics.md 11.4).

// unchecked renders check, hosted on host, as one validation.
func (p *printer) unchecked(host *crd.Node, check plan.Check) string {
	steps := p.root.Between(host)
	body := func(x string) string { return x + " == null || " + paren(p.union(host, check, x)) }
	onCreate := p.fresh(steps, "object", body)
	onUpdate := p.ratcheted(steps, p.root, "object", "oldObject", body)
	return "oldObject == null ? " + paren(onCreate) + " : " + paren(onUpdate)
}

// union renders a union check on n, whose value x is not null. A member
// whose zero value reads as unset is unset where it is null or that
// value (semantics.md 11.2): x.?m.orValue(null) in [null, ”].
func (p *printer) union(n *crd.Node, check plan.Check, x string) string {
	set := func(member string, zero bool) string {
		if zero {
			return "!(" + unsetZero(x, n.Prop(member)) + ")"
		}
		return present(x, []string{member}, n.Prop(member))
	}
	unset := func(member string, zero bool) string {
		if zero {
			return unsetZero(x, n.Prop(member))
		}
		return absent(x, []string{member}, n.Prop(member))
	}
	selects := func(d, value string) string { return valueOrNull(x, []string{d}) + " == " + celString(value) }
	switch c := check.(type) {
	case plan.Count:
		terms := make([]string, len(c.Members))
		for i, m := range c.Members {
			terms[i] = "(" + set(m, slices.Contains(c.ZeroIsUnset, m)) + " ? 1 : 0)"
		}
		op := " <= 1"
		if c.ExactlyOne {
			op = " == 1"
		}
		return joinPlus(terms) + op
	case plan.Required:
		return set(c.Property, c.ZeroIsUnset)
	case plan.SetOnlyWhen:
		return unset(c.Member, c.ZeroIsUnset) + " || " + selects(c.Discriminator, c.Value)
	case plan.RequiredWhen:
		return valueOrNull(x, []string{c.Discriminator}) + " != " + celString(c.Value) + " || " + set(c.Member, c.ZeroIsUnset)
	}
	p.fail("no policy expression for the check %T", check)
	return "false"
}

// unsetZero renders "the member m of x is absent, null or the zero value
// of its type".
func unsetZero(x string, m *crd.Node) string {
	zero := "{}"
	switch m.Schema.Type {
	case "string":
		zero = "''"
	case "integer", "number":
		zero = "0"
	case "boolean":
		zero = "false"
	case "array":
		zero = "[]"
	}
	return valueOrNull(x, []string{m.Name()}) + " in [dyn(null), dyn(" + zero + ")]"
}

func joinPlus(terms []string) string {
	out := terms[0]
	for _, t := range terms[1:] {
		out += " + " + t
	}
	return out
}

// fresh renders "body holds for every instance of the node at the end of
// steps below x", with no old value to pair.
func (p *printer) fresh(steps []*crd.Node, x string, body func(x string) string) string {
	if len(steps) == 0 {
		return body(x)
	}
	st, rest := steps[0], steps[1:]
	switch {
	case st.IsProperty():
		return absent(x, []string{st.Name()}, st) + " || " + paren(p.fresh(rest, prop(x, st.Name()), body))
	case st.IsValue():
		k := p.newVar("k")
		v := x + "[" + k + "]"
		return x + ".all(" + k + ", " + orNull(st, rest, v, p.fresh(rest, v, body)) + ")"
	}
	e := p.newVar("e")
	return x + ".all(" + e + ", " + orNull(st, rest, e, p.fresh(rest, e, body)) + ")"
}

// orNull guards inner, a walk below the entry v, against a null entry,
// below which nothing exists. The entry's own check sees the null.
func orNull(entry *crd.Node, rest []*crd.Node, v, inner string) string {
	if entry.Schema.Nullable && len(rest) > 0 {
		return v + " == null || " + paren(inner)
	}
	return inner
}

// ratcheted is fresh where x is paired with its old value y, at the node
// at.
func (p *printer) ratcheted(steps []*crd.Node, at *crd.Node, x, y string, body func(x string) string) string {
	if len(steps) == 0 {
		return p.unchanged(at.Schema, x, y) + " || " + paren(body(x))
	}
	st, rest := steps[0], steps[1:]
	switch {
	case st.IsProperty():
		nx, ny := prop(x, st.Name()), prop(y, st.Name())
		name := []string{st.Name()}
		return absent(x, name, st) + " || (" + present(y, name, st) + " ? " + paren(p.ratcheted(rest, st, nx, ny, body)) + " : " + paren(p.fresh(rest, nx, body)) + ")"
	case st.IsValue():
		k := p.newVar("k")
		nx, ny := x+"["+k+"]", y+"["+k+"]"
		paired := orNull(st, rest, nx, orNull(st, rest, ny, p.ratcheted(rest, st, nx, ny, body)))
		return x + ".all(" + k + ", " + k + " in " + y + " ? " + paren(paired) + " : " + paren(orNull(st, rest, nx, p.fresh(rest, nx, body))) + ")"
	case at.ListType() == "map":
		return p.ratchetedItems(st, rest, x, y, body)
	}
	// Items of atomic and set lists are not paired: the list is the
	// nearest paired node, and an unchanged list drops every error below.
	return p.unchanged(at.Schema, x, y) + " || " + paren(p.fresh(steps, x, body))
}

// ratchetedItems is ratcheted through the items of a list map, each
// paired with the old item of its keys.
func (p *printer) ratchetedItems(item *crd.Node, rest []*crd.Node, x, y string, body func(x string) string) string {
	n := p.newVar("e")
	if key, ok := p.mapKey(item); ok {
		m := p.newVar("m")
		k := key(n)
		inner := x + ".all(" + n + ", " + k + " in " + m + " ? " + paren(p.ratcheted(rest, item, n, m+"["+k+"]", body)) + " : " + paren(p.fresh(rest, n, body)) + ")"
		return "[" + y + ".transformMapEntry(i, " + n + ", {" + k + ": " + n + "})].all(" + m + ", " + inner + ")"
	}
	o := p.newVar("f")
	keys := keysEqual(item, n, o)
	paired := y + ".all(" + o + ", !(" + keys + ") || " + paren(p.ratcheted(rest, item, n, o, body)) + ")"
	return x + ".all(" + n + ", " + y + ".exists(" + o + ", " + keys + ") ? " + paren(paired) + " : " + paren(p.fresh(rest, n, body)) + ")"
}
