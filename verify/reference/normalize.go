package reference

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// Normalize returns the new object of a create (old nil) or an update as
// the unions' normalization leaves it (docs/semantics.md 11.7, KEP-1027's
// "Normalizing on updates"), written from that text and nothing else:
// for each union with a discriminator D on a node N present as an object
// in new, against the old N (an empty object on create, or where the old
// N is absent, null or no object):
//
//   - D changed (set or unset, or another value): every set member that
//     D's new value does not select is removed;
//   - else, exactly one member set: D is set to its value;
//   - else, exactly one member set in new that was not set in old: D is
//     set to its value and every other set member removed;
//   - else nothing changes.
//
// Without a discriminator only the last rule applies, without D. Unions
// are normalized node by node, a node before the nodes below it,
// properties in name order, map values in key order, list items in list
// order, the unions of a node in declared order, each on what the ones
// before left. The old N of a node inside entries is found entry by
// entry: a map value's is the old value of its key, a list-map item's
// the first old item whose keys equal its own (numbers by value, an
// absent key null), an atomic or set list's item has none and is
// normalized as created. new is not modified.
//
// It fails, naming every such union, where the normalization is refused:
// a union of the root with apiVersion, kind or metadata among its
// members or as discriminator.
func (c *Checker) Normalize(old, new map[string]interface{}) (map[string]interface{}, error) {
	if refused := rootRefusals(c.root); len(refused) > 0 {
		return nil, fmt.Errorf("normalization refused: %s", strings.Join(refused, "; "))
	}
	out := jsonvalue.CopyMap(new)
	normalizeNode(c.root, old, out)
	return out, nil
}

// rootRefusals lists the unions of the root over the properties the
// apiserver owns.
func rootRefusals(root *node) []string {
	var out []string
	for _, u := range root.unions {
		for _, name := range append(u.memberNames(), u.discriminator) {
			if name == "apiVersion" || name == "kind" || name == "metadata" {
				out = append(out, "the root: a union over "+name)
			}
		}
	}
	return out
}

// normalizeNode normalizes the unions of n on new, an object value of n,
// and then those below it. old is the old value of n, nil where there is
// none.
func normalizeNode(n *node, old, new map[string]interface{}) {
	for _, u := range n.unions {
		normalizeUnion(u, old, new)
	}
	for _, p := range n.props {
		normalizeValue(p.node, old[p.name], new[p.name])
	}
}

// normalizeValue normalizes the unions at and below n on new, a value of
// n of any type, against old, the value paired with it (nil for none).
// A value of another type than its schema's has nothing to normalize.
func normalizeValue(n *node, old, new interface{}) {
	if n == nil || !n.unionsBelow {
		return
	}
	switch v := new.(type) {
	case map[string]interface{}:
		if !n.isMap() {
			oldObj, _ := old.(map[string]interface{})
			normalizeNode(n, oldObj, v)
			return
		}
		oldMap, _ := old.(map[string]interface{})
		for _, k := range slices.Sorted(maps.Keys(v)) {
			normalizeValue(n.values, oldMap[k], v[k])
		}
	case []interface{}:
		oldList, _ := old.([]interface{})
		for i, item := range v {
			normalizeValue(n.items, oldItem(n, oldList, item), v[i])
		}
	}
}

// oldItem is the old item paired with item of the list n (11.7): for a
// list map, the first old item whose keys equal item's; for other lists,
// none.
func oldItem(n *node, oldList []interface{}, item interface{}) interface{} {
	if n.listType != "map" || n.items == nil {
		return nil
	}
	if _, ok := item.(map[string]interface{}); !ok {
		return nil
	}
	key := tupleKey(n.items, n.mapKeys, item)
	for _, o := range oldList {
		if _, ok := o.(map[string]interface{}); ok && tupleKey(n.items, n.mapKeys, o) == key {
			return o
		}
	}
	return nil
}

// normalizeUnion applies the rules of 11.7 to one union.
func normalizeUnion(u union, old, new map[string]interface{}) {
	d := u.discriminator
	if d != "" && !sameValue(discriminatorValue(new[d]), discriminatorValue(old[d])) {
		for _, m := range u.members {
			if isSet(new, m) && !selects(new[d], m) {
				delete(new, m.name)
			}
		}
		return
	}
	var set, added []unionMember
	for _, m := range u.members {
		if isSet(new, m) {
			set = append(set, m)
			if !isSet(old, m) {
				added = append(added, m)
			}
		}
	}
	switch {
	case d != "" && len(set) == 1:
		new[d] = set[0].value
	case len(added) == 1 && len(set) > 1:
		if d != "" {
			new[d] = added[0].value
		}
		for _, m := range set {
			if m.name != added[0].name {
				delete(new, m.name)
			}
		}
	}
}

// isSet: present and not null, and, for a member whose zero value reads
// as unset, not the zero value of its JSON type either: "", 0, false, []
// or {} (semantics.md 11.2). The value's own type decides, not the
// schema's: a value of another type, which validation refuses, is not
// read as the schema's type.
func isSet(obj map[string]interface{}, m unionMember) bool {
	v := obj[m.name]
	if v == nil {
		return false
	}
	if !m.zeroUnset {
		return true
	}
	switch x := v.(type) {
	case string:
		return x != ""
	case bool:
		return x
	case []interface{}:
		return len(x) > 0
	case map[string]interface{}:
		return len(x) > 0
	}
	f, ok := asFloat(v)
	return !ok || f != 0
}

// discriminatorValue is the value of a discriminator as the rules
// compare it: absent or null reads as "" (semantics.md 11.3).
func discriminatorValue(v interface{}) interface{} {
	if v == nil {
		return ""
	}
	return v
}

// selects: the discriminator value d is the string that selects m.
func selects(d interface{}, m unionMember) bool {
	s, ok := d.(string)
	return ok && s == m.value
}

// sameValue compares two discriminator values, absent or null being
// nil; numbers, which the schema refuses there, by value.
func sameValue(a, b interface{}) bool {
	if x, ok := asFloat(a); ok {
		y, ok := asFloat(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func asFloat(v interface{}) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
