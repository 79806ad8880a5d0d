package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// entriesExpression is the JSONPatch expression that normalizes union u
// on node, a node inside list items or map values: it walks from object
// to every instance of node, pairs each entry on the way with its old
// entry as docs/semantics.md 11.7 says (plan.Collection), and computes
// the patches of each instance with the rules of unionBody, at the
// instance's own JSON pointer. For the union of Gateway API's HTTPRoute
// filters, on .spec.rules[*].filters[*] (two atomic lists, whose items no
// old item is paired with, so that o is {}), it reads:
//
//	!('spec' in object && type(object['spec']) == map && 'rules' in object['spec'] && type(object['spec']['rules']) == list) ? [] :
//	object['spec']['rules'].transformList(i0, e0,
//	!(type(e0) == map && 'filters' in e0 && type(e0['filters']) == list) ? [] :
//	e0['filters'].transformList(i1, e1,
//	!(type(e1) == map) ? [] :
//	[e1].map(n, [{}].map(o, ['/spec/rules/' + string(i0) + '/filters/' + string(i1)].map(p,
//	BODY)[0])[0])[0]
//	).flatten()
//	).flatten()
//
// Map values are paired by key (oc0 the old map):
//
//	c0.transformList(k0, e0, [type(oc0) == map && k0 in oc0 ? oc0[k0] : null].map(o0, ...)[0])
//
// and list-map items by their keys, through a map of the old items by
// key where the list has one key that a CEL map can hold and every
// stored item has (linear), else by comparing the keys of every pair:
//
//	[type(oc0) == list ? oc0.transformMapEntry(j0, f0, type(f0) == map ? {f0['name']: f0} : {}) : {}].map(m0,
//	c0.transformList(i0, e0, [type(e0) == map && e0[?'name'].orValue(null) in m0 ? m0[e0['name']] : null].map(o0, ...)[0])
//	)[0]
//	c0.transformList(i0, e0, [type(e0) == map && type(oc0) == list ? oc0.filter(f0, type(f0) == map && f0[?'a'].orValue(null) == e0[?'a'].orValue(null) && ...) : []].map(fs0,
//	[size(fs0) > 0 ? fs0[0] : null].map(o0, ...)[0])[0])
//
// Every value is tested for its type before it is read, so that an
// object the schema refuses, which admission sees before validation
// does, gets no patch where it does not fit rather than an error.
func entriesExpression(node decl.Path, u decl.Union, v *plan.Version) (string, error) {
	w := &entryWalk{node: node, u: u, v: v}
	body := w.segment(0, "object", "oldObject", "''")
	if w.err != nil {
		return "", w.err
	}
	return "// KEP-1027 normalization of the union on " + node.String() + ": " + describe(u) + "\n" + body, nil
}

// entryWalk renders the walk of entriesExpression; depth numbers the
// variables of each level of entries.
type entryWalk struct {
	node  decl.Path
	u     decl.Union
	v     *plan.Version
	depth int
	err   error
}

// segment renders the patches below the new value x and the old value y
// (an identifier, or "null" where no old value is paired), whose JSON
// pointer is the CEL string ptr, from step i of the node's path: the
// properties up to the next entries or the node, then those entries or
// the union itself.
func (w *entryWalk) segment(i int, x, y, ptr string) string {
	j := i
	for j < len(w.node) && !w.node[j].Entries {
		j++
	}
	names := make([]string, j-i)
	for k, s := range w.node[i:j] {
		names[k] = s.Name
	}
	ptrAt := ptr
	if len(names) > 0 {
		ptrAt = joinPointer(ptr, strings.TrimSuffix(pointer(w.node[i:j], ""), "/"))
	}
	if j == len(w.node) {
		old := "{}"
		if y != "null" {
			old = typedChain(y, names, "map") + " ? " + access(y, w.node[i:j]) + " : {}"
		}
		return "!(" + typedChain(x, names, "map") + ") ? [] :\n" +
			"[" + access(x, w.node[i:j]) + "].map(n, [" + old + "].map(o, [" + ptrAt + "].map(p,\n" +
			unionBody(w.u, pointerAt{expr: "p"}) + ")[0])[0])[0]"
	}
	c, ok := w.v.Collection(w.node[:j])
	if !ok {
		w.err = fmt.Errorf("%s: the plan does not say how the entries of %s pair with old ones", w.node, w.node[:j])
		return "[]"
	}
	kind := "list"
	if c.Pairing == plan.ByMapKey {
		kind = "map"
	}
	d := strconv.Itoa(w.depth)
	w.depth++
	guard := "!(" + typedChain(x, names, kind) + ") ? [] :\n[" + access(x, w.node[i:j]) + "].map(c" + d + ", "
	if y == "null" || c.Pairing == plan.Unpaired {
		// No old value, or none paired with an entry: no old entry.
		c.Pairing = plan.Unpaired
		return guard + "\n" + w.entries(c, j, d, ptrAt) + "\n)[0]"
	}
	old := typedChain(y, names, kind) + " ? " + access(y, w.node[i:j]) + " : null"
	return guard + "[" + old + "].map(oc" + d + ",\n" + w.entries(c, j, d, ptrAt) + "\n)[0])[0]"
}

// entries renders the patches of every entry of the collection c (new
// value c<d>, old value oc<d>, or null; none where c is Unpaired), each
// entry against the old entry paired with it, as a list of lists made
// flat.
func (w *entryWalk) entries(c plan.Collection, j int, d, ptr string) string {
	e, o := "e"+d, "o"+d
	next := func(old, at string) string { return w.segment(j+1, e, old, at) }
	item := joinPointer(ptr, "'/' + string(i"+d+")")
	switch c.Pairing {
	case plan.ByMapKey:
		k := "k" + d
		return "c" + d + ".transformList(" + k + ", " + e + ", [type(oc" + d + ") == map && " + k + " in oc" + d + " ? oc" + d + "[" + k + "] : null].map(" + o + ",\n" +
			next(o, joinPointer(ptr, "'/' + jsonpatch.escapeKey("+k+")")) + ")[0]).flatten()"
	case plan.Unpaired:
		return "c" + d + ".transformList(i" + d + ", " + e + ",\n" + next("null", item) + ").flatten()"
	}
	if key, ok := singleMapKey(c); ok {
		m, f := "m"+d, "f"+d
		byKey := "type(oc" + d + ") == list ? oc" + d + ".transformMapEntry(j" + d + ", " + f + ", type(" + f + ") == map ? {" + f + "[" + key + "]: " + f + "} : {}) : {}"
		return "[" + byKey + "].map(" + m + ",\n" +
			"c" + d + ".transformList(i" + d + ", " + e + ", [type(" + e + ") == map && " + e + "[?" + key + "].orValue(null) in " + m + " ? " + m + "[" + e + "[" + key + "]] : null].map(" + o + ",\n" +
			next(o, item) + ")[0])\n)[0].flatten()"
	}
	f, fs := "f"+d, "fs"+d
	same := make([]string, len(c.Keys))
	for i, k := range c.Keys {
		same[i] = f + "[?" + celString(k.Name) + "].orValue(null) == " + e + "[?" + celString(k.Name) + "].orValue(null)"
	}
	return "c" + d + ".transformList(i" + d + ", " + e + ", [type(" + e + ") == map && type(oc" + d + ") == list ? oc" + d + ".filter(" + f + ", type(" + f + ") == map && " + strings.Join(same, " && ") + ") : []].map(" + fs + ",\n" +
		"[size(" + fs + ") > 0 ? " + fs + "[0] : null].map(" + o + ",\n" + next(o, item) + ")[0])[0]).flatten()"
}

// singleMapKey returns, as a CEL string literal, the key of a list map
// whose items a CEL map of the old items can be keyed by: one key, which
// every stored item has, of a type a CEL map key can be.
func singleMapKey(c plan.Collection) (string, bool) {
	if len(c.Keys) != 1 || !c.Keys[0].Kept {
		return "", false
	}
	switch c.Keys[0].Type {
	case "string", "integer", "boolean":
		return celString(c.Keys[0].Name), true
	}
	return "", false
}

// typedChain says that x is an object with the properties names, each
// an object but the last, which is of type last (x itself, where names
// is empty): type(x) == map && 'a' in x && type(x['a']) == list. The
// root object is always an object.
func typedChain(x string, names []string, last string) string {
	if len(names) == 0 {
		return "type(" + x + ") == " + last
	}
	var parts []string
	if x != "object" {
		parts = append(parts, "type("+x+") == map")
	}
	for i, name := range names {
		parts = append(parts, celString(name)+" in "+x)
		x += "[" + celString(name) + "]"
		kind := "map"
		if i == len(names)-1 {
			kind = last
		}
		parts = append(parts, "type("+x+") == "+kind)
	}
	return strings.Join(parts, " && ")
}

// joinPointer appends the CEL string expression tail to the pointer
// expression ptr, merging string literals where both sides end and start
// with one.
func joinPointer(ptr, tail string) string {
	switch {
	case ptr == "''":
		return celStringOrExpr(tail)
	case strings.HasSuffix(ptr, "'") && strings.HasPrefix(tail, "'") && !strings.Contains(ptr, `"`):
		return ptr[:len(ptr)-1] + tail[1:]
	}
	return ptr + " + " + celStringOrExpr(tail)
}

// celStringOrExpr is s where it is an expression already, else the CEL
// string literal of the pointer s.
func celStringOrExpr(s string) string {
	if strings.HasPrefix(s, "/") {
		return celString(s)
	}
	return s
}
