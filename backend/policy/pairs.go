package policy

import (
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
)

// A transition check holds for every instance of its node that exists in
// both objects, old and new entries paired as semantics.md 2.2 pairs them
// and as the apiserver pairs them for a CRD's rules (object properties,
// map values by key, list-map items by their keys); the policy walks from
// object and oldObject to every such pair itself:
//
//	property run:  variables.a_b == null || variables.old_a_b == null || BODY
//	map value:     X.all(k, !(k in Y) || BODY(X[k], Y[k]))
//	list-map item: X.all(e, !(e.name in M) || BODY(e, M[e.name]))
//	               with M the old items by key, built once (1.33 on)
//	               X.all(e, Y.all(f, !(e.name == f.name) || BODY(e, f)))
//	               before 1.33, or for keys a map cannot hold
//	atomic item:   X.all(i, e, i >= size(Y) || BODY(e, Y[i]))
//	               (1.33 on; before, the indices up to maxItems)
//
// so that pairing the items of a list map costs O(n) as it does for the
// apiserver, where two nested all() cost O(n²) and would cut the size of
// the lists the policy can judge within the runtime cost limits.

// place is a value the walk has reached: the expressions of its new and
// old values, never null there (but where node is a nullable entry);
// atRoot says they are reached from the root by properties alone, path,
// and read no comprehension variable, so that what lies below them may
// be named as a variable of the policy.
type place struct {
	node   *crd.Node
	x, y   string
	atRoot bool
	path   []string
}

// reading is the value of properties below a place, in one object: its
// expression, valid where it is there, and the tests that it is there,
// not null, and that it is not.
type reading struct{ value, there, missing string }

// read reads the properties names below pl, the last of which is the node
// last, in the new object (old: the old one). From the root, a chain of
// three properties or more is read through a variable of the policy that
// holds its value, or null where it is absent: the validations that read
// it repeat a name, not the walk, and the apiserver evaluates it once.
func (p *printer) read(pl place, names []string, last *crd.Node, old bool) reading {
	x := pl.x
	if old {
		x = pl.y
	}
	switch {
	case len(names) == 0 && pl.node.NullableEntry():
		return reading{x, x + " != null", x + " == null"}
	case len(names) == 0:
		return reading{x, "true", "false"}
	case pl.atRoot && len(pl.path)+len(names) >= 3:
		v := p.vars.named(append(append([]string{}, pl.path...), names...), old, "", valueOrDynNull(x, names))
		return reading{v, v + " != null", v + " == null"}
	}
	return reading{selectAll(x, names), present(x, names, last), absent(x, names, last)}
}

// paired renders "body holds for every instance of the node at below pl
// that exists in both objects".
func (p *printer) paired(pl place, at *crd.Node, body func(pl place) string) string {
	steps := pl.node.Between(at)
	if len(steps) == 0 {
		return body(pl)
	}
	run := 0
	for run < len(steps) && steps[run].IsProperty() {
		run++
	}
	if run > 0 {
		return p.pairedRun(pl, steps[:run], at, body)
	}
	return p.pairedEntries(pl, steps[0], at, body)
}

// pairedRun walks the properties run below pl: both objects have them.
func (p *printer) pairedRun(pl place, run []*crd.Node, at *crd.Node, body func(pl place) string) string {
	last := run[len(run)-1]
	names := propertyNames(pl.node, last)
	x, y := p.read(pl, names, last, false), p.read(pl, names, last, true)
	next := place{node: last, x: x.value, y: y.value, atRoot: pl.atRoot, path: append(append([]string{}, pl.path...), names...)}
	return x.missing + " || " + y.missing + " || " + paren(p.paired(next, at, body))
}

// pairedEntries walks one step into the entries of the collection at pl.
func (p *printer) pairedEntries(pl place, entry *crd.Node, at *crd.Node, body func(pl place) string) string {
	coll := pl.node
	inner := func(x, y string) string {
		next := place{node: entry, x: x, y: y}
		walk := p.paired(next, at, body)
		if entry.Schema.Nullable && entry != at {
			// Below a null entry nothing exists; the entry's own
			// check sees the null.
			return x + " == null || " + y + " == null || " + paren(walk)
		}
		return walk
	}
	switch {
	case entry.IsValue():
		k := p.newVar("k")
		return pl.x + ".all(" + k + ", !(" + k + " in " + pl.y + ") || " + paren(inner(pl.x+"["+k+"]", pl.y+"["+k+"]")) + ")"
	case coll.ListType() == "map":
		return p.pairedItems(pl, entry, inner)
	case coll.ListType() == "set":
		p.fail("%s: the items of a set are never paired with old items", coll.UserPath())
		return "false"
	}
	return p.indexPairs(coll, pl.x, pl.y, func(a, b string) string { return inner(a, b) })
}

// pairedItems pairs the items of the list map at pl by their keys.
func (p *printer) pairedItems(pl place, item *crd.Node, inner func(x, y string) string) string {
	e := p.newVar("e")
	if key, ok := p.mapKey(item); ok {
		byKey := pl.y + ".transformMapEntry(i, e, {" + key("e") + ": e})"
		m := ""
		if pl.atRoot {
			m = p.vars.named(pl.path, true, "by_"+strings.Join(item.Parent.ListMapKeys(), "_"), byKey)
		} else {
			m = p.newVar("m")
			return "[" + byKey + "].all(" + m + ", " + p.itemsByKey(pl.x, e, m, key, inner) + ")"
		}
		return p.itemsByKey(pl.x, e, m, key, inner)
	}
	f := p.newVar("f")
	return pl.x + ".all(" + e + ", " + pl.y + ".all(" + f + ", !(" + keysEqual(item, e, f) + ") || " + paren(inner(e, f)) + "))"
}

// itemsByKey renders "inner holds for every item of x and the old item
// of its key in the map m".
func (p *printer) itemsByKey(x, e, m string, key func(string) string, inner func(x, y string) string) string {
	k := key(e)
	return x + ".all(" + e + ", !(" + k + " in " + m + ") || " + paren(inner(e, m+"["+k+"]")) + ")"
}

// mapKey renders, where the target has transformMapEntry, a key a CEL map
// can hold for an item of the list map whose items are item: the key
// property itself, or for several the keys as one string, each string
// but the last led by its length so that no two keys give one string. It
// fails for keys that may be absent (two items then share the null key),
// and for numbers, which are not map keys.
func (p *printer) mapKey(item *crd.Node) (func(string) string, bool) {
	if !p.twoVar || item.Schema.Nullable {
		return nil, false
	}
	keys := item.Parent.ListMapKeys()
	for _, k := range keys {
		kn := item.Prop(k)
		if kn == nil || !kn.KeptPresent() {
			return nil, false
		}
		switch kn.Schema.Type {
		case "string", "integer", "boolean":
		default:
			return nil, false
		}
	}
	return func(e string) string {
		if len(keys) == 1 {
			return prop(e, keys[0])
		}
		// string() on every part: the type checker has no type for
		// a sum of dyn values.
		var parts []string
		for i, k := range keys {
			v := "string(" + prop(e, k) + ")"
			switch {
			case item.Prop(k).Schema.Type != "string":
				parts = append(parts, v+" + ':'")
			case i < len(keys)-1:
				parts = append(parts, "string(size("+prop(e, k)+")) + ':' + "+v+" + ':'")
			default:
				parts = append(parts, v)
			}
		}
		return strings.TrimSuffix(strings.Join(parts, " + "), " + ':'")
	}, true
}

// keysEqual renders "the items a and b of the list map of item have the
// same keys". A key the schema does not keep present compares as null
// where absent.
func keysEqual(item *crd.Node, a, b string) string {
	var terms []string
	for _, k := range item.Parent.ListMapKeys() {
		if kn := item.Prop(k); kn != nil && kn.KeptPresent() {
			terms = append(terms, prop(a, k)+" == "+prop(b, k))
			continue
		}
		terms = append(terms, valueOrNull(a, []string{k})+" == "+valueOrNull(b, []string{k}))
	}
	return strings.Join(terms, " && ")
}

// indexPairs renders "body holds for a[i], b[i] at every index i that both
// lists of list have". Where the target has two-variable comprehensions:
//
//	a.all(i, e, i >= size(b) || BODY(e, b[i]))
//
// Below that, CEL cannot iterate indices, so maxItems bounds an index
// list, the list's own or one given:
//
//	[0, 1, ..., maxItems-1].all(i, i >= size(a) || i >= size(b) || BODY(a[i], b[i]))
func (p *printer) indexPairs(list *crd.Node, a, b string, body func(a, b string) string) string {
	i := p.newVar("i")
	if p.twoVar {
		e := p.newVar("e")
		return a + ".all(" + i + ", " + e + ", " + i + " >= size(" + b + ") || " + paren(body(e, b+"["+i+"]")) + ")"
	}
	n, ok := p.indexBound(list)
	if !ok {
		p.fail("comparing the items of %s index by index needs two-variable comprehensions, which admission policies can use from Kubernetes 1.33; for older targets mut2cel enumerates the indices up to the list's maxItems (at most %d): give it in the schema or as maxItems of the field in a declarations file", list.UserPath(), maxIndexList)
		return "false"
	}
	indices := make([]string, n)
	for j := range indices {
		indices[j] = strconv.Itoa(j)
	}
	return "[" + strings.Join(indices, ", ") + "].all(" + i + ", " + i + " >= size(" + a + ") || " + i + " >= size(" + b + ") || " + paren(body(a+"["+i+"]", b+"["+i+"]")) + ")"
}

// maxIndexList bounds the literal index list of indexPairs.
const maxIndexList = 256

// indexBound is the number of indices indexPairs enumerates on list: its
// own maxItems, where small enough, else the one given for it.
func (p *printer) indexBound(list *crd.Node) (int64, bool) {
	if vv := list.Schema.ValueValidation; vv != nil && vv.MaxItems != nil && *vv.MaxItems <= maxIndexList {
		return *vv.MaxItems, true
	}
	given, ok := p.given[list.Path.String()]
	return given, ok && given <= maxIndexList
}
