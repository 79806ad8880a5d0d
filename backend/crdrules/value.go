package crdrules

import (
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/edit"
)

// The reason every value rule reports: the update is refused, not the
// value itself (apimachinery's FieldValueForbidden).
const reasonForbidden = "FieldValueForbidden"

// valueAt makes the value of the correlated node n immutable with rules on n
// and on correlated nodes below it. Where CEL's == is strict on n it is one
// rule:
//
//	self == oldSelf
//
// Otherwise each level checks what its own == would miss (property presence,
// map keys, list-map key order) and lets the apiserver pair the children,
// which costs O(n) where an inline comparison would pair list-map items by
// scanning.
//
// Where CEL cannot compare some part of n, it goes on below as if n were
// compared part by part, to report every reason at once; the rules it
// adds then are never used, since the declaration is refused.
func (w *ruleWriter) valueAt(n *crd.Node, msg string) error {
	g := w.g
	exact, err := g.exactEquality(n)
	add := func(expr string) { w.add(n, edit.Rule{Rule: expr, Message: msg, Reason: reasonForbidden}) }
	switch {
	case exact:
		add("self == oldSelf")
	case n.ListType() == "map":
		order, orderErr := g.keyOrder(n, "self", "oldSelf")
		err = joinReasons(err, orderErr)
		if itemsExact, itemsErr := g.exactEquality(n.Items); itemsErr == nil && itemsExact && listMapEqualityWorks(n) {
			add("self == oldSelf && " + order)
			return err
		}
		if !n.Items.Hostable() {
			return joinReasons(err, w.valueInline(n, add))
		}
		add(order)
		return joinReasons(err, w.valueAt(n.Items, msg))
	case n.IsList():
		expr, more := g.equal(n, "self", "oldSelf")
		add(expr)
		return joinReasons(err, more)
	case n.IsMap() && !n.Values.Hostable():
		return joinReasons(err, w.valueInline(n, add))
	case n.IsMap():
		k := g.newVar("k")
		add("size(self) == size(oldSelf) && self.all(" + k + ", " + k + " in oldSelf)")
		return joinReasons(err, w.valueAt(n.Values, msg))
	default:
		return joinReasons(err, w.valueAtObject(n, msg, add))
	}
	return err
}

// valueInline compares the whole value of n in one rule, for a collection
// whose entries cannot host rules of their own.
func (w *ruleWriter) valueInline(n *crd.Node, add func(string)) error {
	expr, err := w.g.equal(n, "self", "oldSelf")
	add(expr)
	return err
}

// valueAtObject compares an object whose == is not strict property by
// property: a property the schema keeps present (crd.Node.KeptPresent) is
// present on both sides, so its presence is not tested.
func (w *ruleWriter) valueAtObject(n *crd.Node, msg string, add func(string)) error {
	var terms []string
	var recurse []*crd.Node
	var errs error
	for _, c := range n.Props {
		name := c.Name()
		x, selErr := sel("self", name)
		y, _ := sel("oldSelf", name)
		exact, err := w.g.exactEquality(c)
		errs = joinReasons(errs, selErr, err)
		switch {
		case exact && c.KeptPresent():
			terms = append(terms, x+" == "+y)
		case exact:
			terms = append(terms, "(has("+x+") ? has("+y+") && "+x+" == "+y+" : !has("+y+"))")
		case c.KeptPresent():
			recurse = append(recurse, c)
		default:
			terms = append(terms, "has("+x+") == has("+y+")")
			recurse = append(recurse, c)
		}
	}
	if len(terms) > 0 {
		add(strings.Join(terms, " && "))
	}
	for _, c := range recurse {
		errs = joinReasons(errs, w.valueAt(c, msg))
	}
	return errs
}
