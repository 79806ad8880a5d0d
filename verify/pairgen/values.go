package pairgen

import (
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// Generated values stay small: mostly at most three entries per
// collection, unless the schema's minimum asks for more, and fewer once an
// object has grown past sizeBudget nodes.
const (
	maxEntries     = 3
	maxLongEntries = 8
	sizeBudget     = 80
)

// mapKeys are the keys of generated maps: mostly three letters, so that
// updates keep, drop and re-add the same keys, and a few that need escaping
// in CEL.
var mapKeys = []string{"a", "b", "c", "a", "b", "c", "x-y", "a.b"}

// value generates a schema-valid value of n.
func (g *Generator) value(n *gnode) interface{} {
	g.size++
	if n.s.Nullable && g.rnd.Intn(16) == 0 {
		return nil
	}
	switch n.kind {
	case kindObject:
		return g.object(n)
	case kindMap:
		return g.mapValue(n)
	case kindList:
		return g.list(n)
	}
	return g.scalar(n)
}

func (g *Generator) scalar(n *gnode) interface{} {
	if len(n.pool) == 0 {
		return int64(0)
	}
	return jsonvalue.Copy(n.pool[g.rnd.Intn(len(n.pool))])
}

// object sets every required property, most properties on the way to a
// target and half of the others.
func (g *Generator) object(n *gnode) map[string]interface{} {
	m := make(map[string]interface{}, len(n.props))
	for _, p := range n.props {
		if n.required[p.name] || g.wants(p.node) {
			m[p.name] = g.value(p.node)
		}
	}
	if len(n.unions) > 0 {
		g.shapeUnions(n, m)
	}
	g.fitProperties(n, m)
	if ap := n.s.AdditionalProperties; ap != nil && ap.Bool && ap.Structural == nil {
		// A free-form object: keys of any name, values of any type.
		for i := g.rnd.Intn(3); i > 0; i-- {
			m[g.mapKey(0)] = g.pick("a", "b")
		}
	}
	if n.s.XEmbeddedResource {
		m["apiVersion"], m["kind"] = "v1", "Thing"
	}
	if n.s.XPreserveUnknownFields && g.rnd.Intn(4) == 0 {
		m["unknownField"] = g.pick("a", "b")
	}
	return m
}

func (g *Generator) wants(n *gnode) bool {
	switch {
	case g.even:
		return g.rnd.Intn(2) == 0
	case n.avoid:
		return false
	case g.size > sizeBudget:
		return n.aimed && g.rnd.Intn(2) == 0
	case n.aimed:
		return g.rnd.Intn(8) > 0
	}
	return g.rnd.Intn(2) == 0
}

// fitProperties brings the properties of an object within its
// minProperties and maxProperties: it sets more of its properties, in
// schema order, or drops optional ones from the end.
func (g *Generator) fitProperties(n *gnode, m map[string]interface{}) {
	vv := n.s.ValueValidation
	if vv == nil {
		return
	}
	if vv.MinProperties != nil {
		for _, p := range n.props {
			if int64(len(m)) >= *vv.MinProperties {
				break
			}
			if _, set := m[p.name]; !set {
				m[p.name] = g.value(p.node)
			}
		}
	}
	if vv.MaxProperties != nil {
		for i := len(n.props) - 1; i >= 0 && int64(len(m)) > *vv.MaxProperties; i-- {
			if p := n.props[i]; !n.required[p.name] {
				delete(m, p.name)
			}
		}
	}
}

// entries draws a collection size: up to maxEntries, and now and then up to
// the schema's maximum (at most maxLongEntries), so that rules that
// enumerate indices up to maxItems meet long lists too.
func (g *Generator) entries(lo, hi *int64) int {
	limit := maxEntries
	if g.rnd.Intn(8) == 0 {
		limit = maxLongEntries
	}
	a, b := minMax(lo, hi, 0, limit)
	if g.size > sizeBudget && b > a {
		b = a + 1
	}
	if b < a {
		return a
	}
	return a + g.rnd.Intn(b-a+1)
}

func (g *Generator) mapValue(n *gnode) map[string]interface{} {
	var lo, hi *int64
	if vv := n.s.ValueValidation; vv != nil {
		lo, hi = vv.MinProperties, vv.MaxProperties
	}
	count := g.entries(lo, hi)
	m := make(map[string]interface{}, count)
	for try := 0; len(m) < count && try < 4*count+4; try++ {
		k := g.mapKey(try)
		if _, dup := m[k]; !dup {
			m[k] = g.value(n.values)
		}
	}
	return m
}

// mapKey draws a key; after a few tries it numbers keys so that maps with
// a large minimum still fill up.
func (g *Generator) mapKey(try int) string {
	if try > len(mapKeys) {
		return "k" + strconv.Itoa(try)
	}
	return mapKeys[g.rnd.Intn(len(mapKeys))]
}

func (g *Generator) list(n *gnode) []interface{} {
	var lo, hi *int64
	if vv := n.s.ValueValidation; vv != nil {
		lo, hi = vv.MinItems, vv.MaxItems
	}
	count := g.entries(lo, hi)
	l := make([]interface{}, 0, count)
	keys := map[string]bool{} // of l's items: each item's key is computed once
	for try := 0; len(l) < count && try < 4*count+4; try++ {
		item := g.value(n.items)
		if n.listType != "atomic" {
			k := entryKey(n, item)
			if keys[k] {
				continue
			}
			keys[k] = true
		}
		l = append(l, item)
	}
	return l
}

// addUnique inserts item at index i unless a set or list-map already has
// its key: the apiserver rejects duplicates.
func (g *Generator) addUnique(n *gnode, l []interface{}, item interface{}, i int) []interface{} {
	if n.listType != "atomic" {
		k := entryKey(n, item)
		for _, other := range l {
			if entryKey(n, other) == k {
				return l
			}
		}
	}
	l = append(l, nil)
	copy(l[i+1:], l[i:])
	l[i] = item
	return l
}

// dedupe drops later items whose key repeats an earlier one.
func dedupe(n *gnode, l []interface{}) []interface{} {
	if n.listType == "atomic" {
		return l
	}
	seen := map[string]bool{}
	out := l[:0]
	for _, item := range l {
		if k := entryKey(n, item); !seen[k] {
			seen[k] = true
			out = append(out, item)
		}
	}
	return out
}

// dedupeAlong applies dedupe where one operator applied at path can have
// made a duplicate: to the lists the path steps through and to every set
// and list-map below the node at path. The rest of v is unchanged and so
// still has no duplicates; skipping it matters on large schemas, where
// each item's key goes through the storage pipeline.
func dedupeAlong(v interface{}, n *gnode, path schemapath.Path) interface{} {
	if n == nil {
		return v
	}
	if len(path) == 0 {
		return dedupeAll(v, n)
	}
	st, rest := path[0], path[1:]
	switch x := v.(type) {
	case map[string]interface{}:
		switch st.Kind {
		case schemapath.Property:
			if e, ok := x[st.Name]; ok && n.values == nil {
				x[st.Name] = dedupeAlong(e, n.propIdx[st.Name], rest)
			}
		case schemapath.Values:
			for k, e := range x {
				x[k] = dedupeAlong(e, n.values, rest)
			}
		}
	case []interface{}:
		if n.kind != kindList || st.Kind != schemapath.Items {
			return v
		}
		for i, e := range x {
			x[i] = dedupeAlong(e, n.items, rest)
		}
		return dedupe(n, x)
	}
	return v
}

// dedupeAll applies dedupe to every set and list-map in v.
func dedupeAll(v interface{}, n *gnode) interface{} {
	if n == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = dedupeAll(e, n.child(k))
		}
	case []interface{}:
		if n.kind != kindList {
			return v
		}
		for i, e := range x {
			x[i] = dedupeAll(e, n.items)
		}
		return dedupe(n, x)
	}
	return v
}

// entryKey identifies an item of a set (its value) or a list-map (its key
// fields), in the form storage gives the item: defaults filled in and
// dropped nulls gone, as the apiserver compares them.
//
// Storage changes no scalar that is present and not null (pruning, null
// dropping and defaulting touch only objects, absent fields and nulls), so
// such values, the usual set item and list-map key, skip the pipeline.
func entryKey(n *gnode, item interface{}) string {
	if n.listType == "set" {
		if isScalar(item) {
			return jsonvalue.Canonical(item)
		}
		return jsonvalue.Canonical(kube.StoreValue(n.items.s, jsonvalue.Copy(item)))
	}
	if obj, ok := item.(map[string]interface{}); ok && !n.items.s.XEmbeddedResource && scalarKeys(obj, n.mapKeys) {
		return joinKeys(obj, n.mapKeys)
	}
	obj, _ := kube.StoreValue(n.items.s, keyFields(n, item)).(map[string]interface{})
	return joinKeys(obj, n.mapKeys)
}

func joinKeys(obj map[string]interface{}, keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(jsonvalue.Canonical(obj[k]))
		b.WriteByte(0)
	}
	return b.String()
}

// scalarKeys reports whether every key field of obj is a scalar, present
// and not null.
func scalarKeys(obj map[string]interface{}, keys []string) bool {
	for _, k := range keys {
		if !isScalar(obj[k]) {
			return false
		}
	}
	return true
}

func isScalar(v interface{}) bool {
	switch v.(type) {
	case string, bool, int64, float64:
		return true
	}
	return false
}

// keyFields returns a copy of the key fields of a list-map item, or of the
// whole item when it is not an object. Pruning, null dropping and
// defaulting treat each property of an object apart from the others, so
// the key fields come out of storage as they would within the whole item,
// without copying and storing the rest of it (a pod template, say).
func keyFields(n *gnode, item interface{}) interface{} {
	obj, ok := item.(map[string]interface{})
	if !ok || n.items.s.XEmbeddedResource {
		return jsonvalue.Copy(item)
	}
	keys := make(map[string]interface{}, len(n.mapKeys))
	for _, k := range n.mapKeys {
		if v, found := obj[k]; found {
			keys[k] = jsonvalue.Copy(v)
		}
	}
	return keys
}

func (g *Generator) pick(from ...string) string { return from[g.rnd.Intn(len(from))] }
