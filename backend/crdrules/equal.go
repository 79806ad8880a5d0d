package crdrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/diag"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// exactEquality reports whether CEL's == on values of n is strict equality
// (semantics.md 2.3). It is not for lists of type set or map, whose == ignores
// order, nor for objects with nullable properties, whose == counts a null
// property although has() and the semantics treat it as absent, nor for
// objects with a property whose name reads as a CEL escape, which their ==
// skips (equalSeesProperty), nor where a list item or map value that is an
// object, list or map may be null: the apiserver's == fails ("no such
// overload") comparing such a value with null. Values CEL cannot compare at
// all are an error.
func (g *exprGen) exactEquality(n *crd.Node) (bool, error) {
	exact, err := g.exactValues(n)
	return exact && !nullableContainer(n), err
}

// nullableContainer reports whether n is an entry that may be null and is
// an object, list or map.
func nullableContainer(n *crd.Node) bool {
	return n.NullableEntry() && (n.Schema.Type == "object" || n.Schema.Type == "array")
}

// exactValues is exactEquality for two values of n that are not null.
// Below a node CEL cannot compare it goes on, to report every such node
// down to the next set or list map, whose items the generators read.
func (g *exprGen) exactValues(n *crd.Node) (bool, error) {
	errs := g.comparable(n)
	if lt := n.ListType(); lt == "set" || lt == "map" {
		return false, errs
	}
	exact := true
	for _, p := range n.Props {
		if p.Schema.Nullable || !equalSeesProperty(p.Name()) {
			exact = false
		}
		ok, err := g.exactEquality(p)
		errs = joinReasons(errs, err)
		exact = exact && ok
	}
	for _, c := range []*crd.Node{n.Items, n.Values} {
		if c == nil {
			continue
		}
		ok, err := g.exactEquality(c)
		errs = joinReasons(errs, err)
		exact = exact && ok
	}
	if errs != nil {
		return false, errs
	}
	return exact, nil
}

// comparable rejects values whose changes CEL cannot see.
func (g *exprGen) comparable(n *crd.Node) error {
	switch {
	case n.Schema.XPreserveUnknownFields:
		return cannot(diag.ReasonInexact, "the value at %s keeps unknown fields (x-kubernetes-preserve-unknown-fields), and the apiserver's CEL compares unknown fields only when both sides have them, so no rule can see one added or removed; declare the known fields inside it instead", n.UserPath())
	case n.Schema.XEmbeddedResource:
		return cannot(diag.ReasonInexact, "the value at %s is an embedded resource, whose metadata the apiserver's CEL sees only in part, so no rule can compare it exactly; declare the known fields inside it instead", n.UserPath())
	case n.Schema.AdditionalProperties != nil && n.Schema.AdditionalProperties.Bool && n.Schema.AdditionalProperties.Structural == nil:
		return cannot(diag.ReasonInexact, "the value at %s is a free-form object (additionalProperties: true), and the apiserver's CEL compares its keys only when both sides have them, so no rule can see one added, removed or renamed; declare the known fields inside it instead", n.UserPath())
	}
	return g.formatComparable(n)
}

// listMapEqualityWorks reports whether CEL's == can compare lists of the
// list-map n. The apiserver's == on list-maps looks the key properties up
// by their escaped names (x__dash__y, __in__) in the stored items, which
// hold the plain names, so where a key name needs escaping every item gets
// the same key and two equal lists of two items or more compare unequal.
// Such lists are compared item by item instead.
func listMapEqualityWorks(n *crd.Node) bool {
	if n.NumberKeyed() {
		return false
	}
	for _, k := range n.ListMapKeys() {
		if escaped, ok := apiservercel.Escape(k); !ok || escaped != k {
			return false
		}
	}
	return true
}

// equal renders strict equality of a and b, two present values of n, without
// help from the apiserver's correlation (used where old values are not paired
// by the apiserver, and inside iterations).
//
//	exact ==:   a == b
//	object:     (has(a.f) ? has(b.f) && a.f == b.f : !has(b.f)) && ...
//	map:        size(a) == size(b) && a.all(k, k in b && EQ(a[k], b[k]))
//	set:        a.map(e, e) == b.map(e, e), or by index where its items' == is not strict
//	list map:   a.map(e, e.k) == b.map(e, e.k) && <items paired by key>
//	atomic:     size(a) == size(b) && <items paired by index>
//
// map() turns a set or list map into a plain CEL list, whose == is ordered.
//
// Where CEL cannot compare some part of n, it goes on to the parts
// exactEquality does not read, and returns every reason found.
func (g *exprGen) equal(n *crd.Node, a, b string) (string, error) {
	exact, err := g.exactEquality(n)
	if exact {
		return a + " == " + b, nil
	}
	var expr string
	var more error
	if nullableContainer(n) {
		expr, more = g.equalNullable(n, a, b)
	} else {
		expr, more = g.equalValues(n, a, b)
	}
	return expr, joinReasons(err, more)
}

// equalNullable compares two entries of n that may be null: a null entry
// equals only null, and a value is read only when neither side is null.
//
//	type(a) == null_type || type(b) == null_type ? type(a) == null_type && type(b) == null_type : EQ(a, b)
func (g *exprGen) equalNullable(n *crd.Node, a, b string) (string, error) {
	exact, err := g.exactValues(n)
	inner := a + " == " + b
	if !exact {
		var more error
		inner, more = g.equalValues(n, a, b)
		err = joinReasons(err, more)
	}
	return "(" + isNull(a) + " || " + isNull(b) + " ? " + isNull(a) + " && " + isNull(b) + " : " + paren(inner) + ")", err
}

// equalValues is equal for two values of n that are not null.
func (g *exprGen) equalValues(n *crd.Node, a, b string) (string, error) {
	switch {
	case n.ListType() == "set":
		itemsExact, err := g.exactEquality(n.Items)
		if err != nil || !itemsExact || g.errorsSwallowed(n.Items) {
			// Items CEL's == does not compare strictly (objects with a
			// nullable property, an inner set, an escape-like name) are
			// compared index by index, as strict equality of lists is
			// (semantics.md 2.3).
			return g.equalByIndex(n, a, b)
		}
		if g.twoVarComprehensions && !sizedByLength(n.Items) {
			i, v := g.newVar("i"), g.newVar("v")
			return sameOrder(a, b, i, v, v+" == "+b+"["+i+"]"), nil
		}
		e := g.newVar("e")
		return a + ".map(" + e + ", " + e + ") == " + b + ".map(" + e + ", " + e + ")", nil
	case n.ListType() == "map":
		return g.equalListMap(n, a, b)
	case n.IsList():
		return g.equalByIndex(n, a, b)
	case n.IsMap():
		k := g.newVar("k")
		inner, err := g.equal(n.Values, a+"["+k+"]", b+"["+k+"]")
		return "size(" + a + ") == size(" + b + ") && " + a + ".all(" + k + ", " + k + " in " + b + " && " + paren(inner) + ")", err
	}
	return g.equalObject(n, a, b)
}

// equalByIndex compares the lists a and b of n item by item, at equal
// indices.
func (g *exprGen) equalByIndex(n *crd.Node, a, b string) (string, error) {
	body, err := g.indexPairs(n, a, b, func(ai, bi string) (string, error) { return g.equal(n.Items, ai, bi) })
	return "size(" + a + ") == size(" + b + ") && " + body, err
}

// keyOrder renders "the list maps a and b have the same keys in the same
// order", one ordered list comparison per key property, or, where the keys
// are not strings and the target has two-variable comprehensions, one pass
// comparing the keys index by index (sameOrder).
func (g *exprGen) keyOrder(n *crd.Node, a, b string) (string, error) {
	if g.twoVarComprehensions && !keysSizedByLength(n) {
		i, v := g.newVar("i"), g.newVar("v")
		eq, err := g.keyEq(n, v, b+"["+i+"]")
		return sameOrder(a, b, i, v, eq), err
	}
	errs := g.keysComparable(n)
	var terms []string
	for _, k := range n.ListMapKeys() {
		e := g.newVar("e")
		ek, err := sel(e, k)
		errs = joinReasons(errs, err)
		terms = append(terms, a+".map("+e+", "+ek+") == "+b+".map("+e+", "+ek+")")
	}
	return strings.Join(terms, " && "), errs
}

func (g *exprGen) equalListMap(n *crd.Node, a, b string) (string, error) {
	order, orderErr := g.keyOrder(n, a, b)
	itemsExact, err := g.exactEquality(n.Items)
	if err == nil && itemsExact && listMapEqualityWorks(n) {
		// == on list maps pairs items by key: with the same key order it is
		// strict.
		return a + " == " + b + " && " + order, orderErr
	}
	e, f := g.newVar("e"), g.newVar("e")
	eq, eqErr := g.keyEq(n, e, f)
	inner, innerErr := g.equal(n.Items, e, f)
	return order + " && " + a + ".all(" + e + ", " + b + ".all(" + f + ", !(" + eq + ") || " + paren(inner) + "))", joinReasons(orderErr, eqErr, innerErr)
}

func (g *exprGen) equalObject(n *crd.Node, a, b string) (string, error) {
	var terms []string
	var errs error
	for _, p := range n.Props {
		name := p.Name()
		ap, selErr := sel(a, name)
		bp, _ := sel(b, name)
		inner, err := g.equal(p, ap, bp)
		errs = joinReasons(errs, selErr, err)
		terms = append(terms, "(has("+ap+") ? has("+bp+") && "+paren(inner)+" : !has("+bp+"))")
	}
	if len(terms) == 0 {
		return "true", nil
	}
	return strings.Join(terms, " && "), errs
}

// indexPairs renders "body holds for a[i], b[i] at every index i that both
// lists have". Where the target has two-variable comprehensions:
//
//	a.all(i, v, i >= size(b) || BODY(v, b[i]))
//
// Below that, CEL cannot iterate indices, so maxItems bounds an index list:
//
//	[0, 1, ..., maxItems-1].all(i, i >= size(a) || i >= size(b) || BODY(a[i], b[i]))
func (g *exprGen) indexPairs(list *crd.Node, a, b string, body func(ai, bi string) (string, error)) (string, error) {
	i := g.newVar("i")
	if g.twoVarComprehensions {
		v := g.newVar("v")
		inner, err := body(v, b+"["+i+"]")
		return a + ".all(" + i + ", " + v + ", " + i + " >= size(" + b + ") || " + paren(inner) + ")", err
	}
	inner, err := body(a+"["+i+"]", b+"["+i+"]")
	n, ok := g.indexBound(list) // the list's maxItems, or one given (givenbounds.go)
	if !ok {
		// The items are read all the same, for the reasons they hold.
		return "", joinReasons(needsIndexIteration(list), err)
	}
	indices := make([]string, n)
	for j := range indices {
		indices[j] = strconv.Itoa(j)
	}
	return "[" + strings.Join(indices, ", ") + "].all(" + i + ", " + i + " >= size(" + a + ") || " + i + " >= size(" + b + ") || " + paren(inner) + ")", err
}

// maxIndexList bounds the literal index list of indexPairs: beyond it the
// rule text grows unreasonably and targets that need it should use 1.33.
const maxIndexList = 256

// needsIndexIteration refuses to compare the items of list index by
// index on a target that cannot iterate indices, where the list has no
// maxItems to enumerate them.
func needsIndexIteration(list *crd.Node) error {
	return &inexpressible{reason: diag.ReasonIndexComparison, detail: indexIterationDetail([]string{list.UserPath()}), node: list.UserPath()}
}

func indexIterationDetail(lists []string) string {
	if len(lists) == 1 {
		return fmt.Sprintf("comparing the items of %s index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33; for older targets mut2cel enumerates the indices up to the list's maxItems (at most %d): give it in the schema, as maxItems of the field in a declarations file, or as a run-wide floor", lists[0], maxIndexList)
	}
	return fmt.Sprintf("comparing the items of %s index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33; for older targets mut2cel enumerates the indices up to each list's maxItems (at most %d): give them in the schema, as maxItems of the fields in a declarations file, or as run-wide floors", andList(lists), maxIndexList)
}

// paren wraps a compound expression so it can be an operand.
func paren(e string) string {
	if strings.ContainsAny(e, " ") {
		return "(" + e + ")"
	}
	return e
}

// sameOrder renders "the lists a and b have the same length and, index by
// index, items for which same holds", where same compares the item v of a
// at index i with b[i]:
//
//	size(a) == size(b) && a.all(i, v, SAME)
//
// It needs two-variable comprehensions. For items whose comparison the
// estimator charges by a constant (numbers, booleans) it costs about a
// quarter of comparing a.map(e, e) with b.map(e, e): 455 against 1,695 for
// a set of 64 integers. For strings the mapped lists are cheaper, because
// the estimator charges == on two lists by their length only, and ==
// on strings by their maxLength.
func sameOrder(a, b, i, v, same string) string {
	return "size(" + a + ") == size(" + b + ") && " + a + ".all(" + i + ", " + v + ", " + same + ")"
}

// sizedByLength reports whether comparing values of n costs by their
// length: strings, and anything that is not a number or boolean.
func sizedByLength(n *crd.Node) bool {
	switch n.Schema.Type {
	case "integer", "number", "boolean":
		return false
	}
	return true
}

// keysSizedByLength reports whether any key property of the list map n is
// compared by length.
func keysSizedByLength(n *crd.Node) bool {
	for _, k := range n.ListMapKeys() {
		if c := n.Items.Prop(k); c == nil || sizedByLength(c) {
			return true
		}
	}
	return false
}
