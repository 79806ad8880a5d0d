package reference

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// keySet holds the keys of one collection instance (semantics.md 2.2) as
// canonical strings, in order of first appearance so details are stable.
type keySet struct {
	order []string
	has   map[string]bool
}

func (s *keySet) add(k string) {
	if s.has == nil {
		s.has = map[string]bool{}
	}
	if !s.has[k] {
		s.has[k] = true
		s.order = append(s.order, k)
	}
}

// missing returns the keys of s that are not in t.
func (s keySet) missing(t keySet) []string {
	var out []string
	for _, k := range s.order {
		if !t.has[k] {
			out = append(out, k)
		}
	}
	return out
}

// keysOf returns the keys of collection n at one position. An absent
// collection has no keys (semantics.md 4), and neither has a value of the
// wrong type.
func keysOf(n *node, s side) keySet {
	var set keySet
	if !s.ok {
		return set
	}
	if list, ok := s.v.([]interface{}); ok {
		for i, item := range list {
			set.add(listKey(n, item, i))
		}
	}
	if m, ok := s.v.(map[string]interface{}); ok && n.isMap() {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			set.add(mapKey(k))
		}
	}
	return set
}

// listKey is the key of item i of list n, per list type (semantics.md 2.2):
// the index for atomic lists, the tuple of key fields for list-maps, the
// whole value for sets.
func listKey(n *node, item interface{}, i int) string {
	switch n.listType {
	case "map":
		return tupleKey(n.items, n.mapKeys, item)
	case "set":
		return canonical(n.items, item)
	}
	return strconv.Itoa(i)
}

// tupleKey renders the key fields of a list-map item in declared order; a
// missing or null key field is null.
func tupleKey(items *node, keys []string, item interface{}) string {
	obj, _ := item.(map[string]interface{})
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		writeCanonical(&b, items.property(k), obj[k])
	}
	b.WriteByte('}')
	return b.String()
}

func mapKey(k string) string {
	return strconv.Quote(k)
}
