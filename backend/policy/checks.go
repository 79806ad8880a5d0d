package policy

import (
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/plan"
)

// body renders check at pl, whose new and old values are never null
// there (semantics.md 3 and 4).
func (p *printer) body(pl place, check plan.Check) string {
	switch c := check.(type) {
	case plan.Unchanged:
		return p.equal(pl.node, pl.x, pl.y)
	case plan.Presence:
		of := p.root.Find(c.Of)
		names := propertyNames(pl.node, of)
		x, y := p.read(pl, names, of, false), p.read(pl, names, of, true)
		switch c.Mode {
		case plan.AddOnly:
			return or(y.missing, x.there)
		case plan.RemoveOnly:
			return or(x.missing, y.there)
		}
		return paren(x.there) + " == " + paren(y.there)
	case plan.Keys:
		return p.keys(pl, c)
	case plan.KeyPresence:
		coll := p.root.Find(c.Collection)
		names := propertyNames(pl.node, coll)
		x, y := p.read(pl, names, coll, false), p.read(pl, names, coll, true)
		switch c.Mode {
		case plan.AddOnly:
			return or(y.missing, "size("+y.value+") == 0", x.there)
		case plan.RemoveOnly:
			return or(x.missing, "size("+x.value+") == 0", y.there)
		}
		return cond(x.there, or(y.there, "size("+x.value+") == 0"), or(y.missing, "size("+y.value+") == 0"))
	}
	p.fail("no policy expression for the check %T", check)
	return "false"
}

// cond renders test ? then : els, or one of them where test is a
// constant.
func cond(test, then, els string) string {
	switch test {
	case "true":
		return then
	case "false":
		return els
	}
	return "(" + test + " ? " + paren(then) + " : " + paren(els) + ")"
}

// keys renders the key check c at pl (semantics.md 4). An absent
// collection has no keys: with X and Y the new and old collection, PX and
// PY their presence,
//
//	atomic list:  (PX ? size(X) : 0) >= (PY ? size(Y) : 0)      AddOnly
//	others:       !PY || (PX ? CONTAINED(Y, X) : size(Y) == 0)   AddOnly
//	              !PX || (PY ? CONTAINED(X, Y) : size(X) == 0)   RemoveOnly
//	              PX ? (PY ? size(X) == size(Y) && CONTAINED(Y, X) : size(X) == 0)
//	                 : (!PY || size(Y) == 0)                     Immutable
func (p *printer) keys(pl place, c plan.Keys) string {
	coll := p.root.Find(c.Collection)
	names := propertyNames(pl.node, coll)
	x, y := p.read(pl, names, coll, false), p.read(pl, names, coll, true)
	size := func(r reading) string { return cond(r.there, "size("+r.value+")", "0") }
	if coll.ListType() == "atomic" {
		op := map[plan.Mode]string{plan.Immutable: "==", plan.AddOnly: ">=", plan.RemoveOnly: "<="}[c.Mode]
		return paren(size(x)) + " " + op + " " + paren(size(y))
	}
	switch c.Mode {
	case plan.AddOnly:
		return or(y.missing, cond(x.there, p.contained(coll, y.value, x.value), "size("+y.value+") == 0"))
	case plan.RemoveOnly:
		return or(x.missing, cond(y.there, p.contained(coll, x.value, y.value), "size("+x.value+") == 0"))
	}
	same := "size(" + x.value + ") == size(" + y.value + ") && " + p.contained(coll, y.value, x.value)
	return cond(x.there, cond(y.there, same, "size("+x.value+") == 0"), or(y.missing, "size("+y.value+") == 0"))
}

// contained renders "every key of sub is a key of super", collections of
// coll:
//
//	map:       SUB.all(k, k in SUPER)
//	set:       SUB.all(e, e in SUPER)
//	list map:  SUB.all(e, e.name in M), M the keys of SUPER (1.33 on)
//	           SUB.all(e, SUPER.exists(f, e.name == f.name))
func (p *printer) contained(coll *crd.Node, sub, super string) string {
	switch {
	case coll.IsMap() || coll.Schema.Type == "object":
		k := p.newVar("k")
		return sub + ".all(" + k + ", " + k + " in " + super + ")"
	case coll.ListType() == "set" && plainExact(coll.Items):
		e := p.newVar("e")
		return sub + ".all(" + e + ", " + e + " in " + super + ")"
	case coll.ListType() == "set":
		// in compares with ==, which is not strict for these items:
		// scan for an item strictly equal instead.
		e, f := p.newVar("e"), p.newVar("f")
		return sub + ".all(" + e + ", " + super + ".exists(" + f + ", " + paren(p.equal(coll.Items, e, f)) + "))"
	}
	e := p.newVar("e")
	if key, ok := p.mapKey(coll.Items); ok {
		m := p.newVar("m")
		return "[" + super + ".transformMapEntry(i, " + e + ", {" + key(e) + ": true})].all(" + m + ", " + sub + ".all(" + e + ", " + key(e) + " in " + m + "))"
	}
	f := p.newVar("f")
	return sub + ".all(" + e + ", " + super + ".exists(" + f + ", " + keysEqual(coll.Items, e, f) + "))"
}

// plainExact reports whether == on JSON values of n is the strict
// equality of semantics.md 2.3: where no property at or below n may be
// null, since a null property counts as absent and == tells the two
// apart.
func plainExact(n *crd.Node) bool {
	exact := true
	n.Walk(func(c *crd.Node) {
		if c != n && c.IsProperty() && c.Schema.Nullable {
			exact = false
		}
	})
	return exact
}

// equal renders strict equality of a and b, two values of n that are not
// null (unless n is a nullable entry):
//
//	exact ==:   a == b
//	object:     a.?f == b.?f && ..., a null property read as absent
//	map:        size(a) == size(b) && a.all(k, k in b && EQ(a[k], b[k]))
//	lists:      size(a) == size(b) && <items paired by index>
func (p *printer) equal(n *crd.Node, a, b string) string {
	if plainExact(n) {
		return a + " == " + b
	}
	inner := p.equalValues(n, a, b)
	if n.NullableEntry() {
		return "(" + a + " == null || " + b + " == null ? " + a + " == " + b + " : " + paren(inner) + ")"
	}
	return inner
}

func (p *printer) equalValues(n *crd.Node, a, b string) string {
	switch {
	case n.IsList():
		return "size(" + a + ") == size(" + b + ") && " + p.indexPairs(n, a, b, func(x, y string) string { return p.equal(n.Items, x, y) })
	case n.IsMap():
		k := p.newVar("k")
		return "size(" + a + ") == size(" + b + ") && " + a + ".all(" + k + ", " + k + " in " + b + " && " + paren(p.equal(n.Values, a+"["+k+"]", b+"["+k+"]")) + ")"
	}
	var terms []string
	for _, c := range n.Props {
		name := []string{c.Name()}
		switch {
		case plainExact(c) && !c.Schema.Nullable:
			terms = append(terms, chain(a, name)+" == "+chain(b, name))
		case plainExact(c):
			terms = append(terms, valueOrNull(a, name)+" == "+valueOrNull(b, name))
		default:
			pa, pb := present(a, name, c), present(b, name, c)
			terms = append(terms, "("+pa+" ? "+pb+" && "+paren(p.equal(c, prop(a, c.Name()), prop(b, c.Name())))+" : "+absent(b, name, c)+")")
		}
	}
	if len(terms) == 0 {
		return "true"
	}
	return strings.Join(terms, " && ")
}
