package reference

import (
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Kinds of union violations (semantics.md, "Unions"), one per message.
const (
	kindUnionTooMany       = "union: several members"       // more members present than the union allows
	kindUnionNone          = "union: no member"             // ExactlyOne without a discriminator, no member present
	kindUnionNotSelected   = "union: member not selected"   // a present member the discriminator does not select
	kindUnionSelectedUnset = "union: selected member unset" // ExactlyOne: the selected member is absent
)

// checkUnions judges the unions at and below n in the new value. old is
// the value the apiserver correlates with it, when correlated: the old
// root; the old value of an object property or map entry present on both
// sides; the old item of a list-map with the same key. Items of atomic
// lists and sets correlate with nothing. A node is not judged when the
// nearest correlated node at or above it is unchanged (ratchetEqual):
// that is the apiserver's CRD validation ratcheting of rules without
// oldSelf, which unions are; above says whether the nearest correlated
// node above n is unchanged. On create nothing correlates and every
// union is judged.
func (w *walker) checkUnions(n *node, old interface{}, correlated bool, new interface{}, at *field.Path, above *lazyBool) {
	if n == nil || !n.unionsBelow || new == nil {
		return // no union here or below; or null, where the apiserver runs no rule
	}
	unchanged := above
	if correlated {
		unchanged = &lazyBool{f: func() bool { return ratchetEqual(n, old, new) }}
	}
	switch x := new.(type) {
	case map[string]interface{}:
		if len(n.unions) > 0 && !unchanged.get() {
			for _, u := range n.unions {
				w.exercise(n, extUnions, u.name)
				w.judgeUnion(n, u, x, at)
			}
		}
		oldObj, oldIsObj := old.(map[string]interface{})
		correlated = correlated && oldIsObj
		for _, k := range slices.Sorted(maps.Keys(x)) {
			ov, inOld := oldObj[k]
			w.checkUnions(n.child(k), ov, correlated && inOld, x[k], childPath(n, at, k), unchanged)
		}
	case []interface{}:
		oldList, oldIsList := old.([]interface{})
		var byKey map[string]int
		if correlated && oldIsList && n.listType == "map" {
			byKey = firstByKey(n, oldList)
		}
		for i, item := range x {
			j, found := byKey[tupleKey(n.items, n.mapKeys, item)]
			var ov interface{}
			if found {
				ov = oldList[j]
			}
			w.checkUnions(n.itemNode(), ov, found, item, at.Index(i), unchanged)
		}
	}
}

// lazyBool is computed once, when first asked: whether a node is
// unchanged matters only where a union below it is judged.
type lazyBool struct {
	f       func() bool
	done, v bool
}

func (l *lazyBool) get() bool {
	if !l.done {
		l.v, l.done = l.f(), true
	}
	return l.v
}

// changed stands above the root on update and above everything on
// create: nothing there is unchanged.
func changed() *lazyBool { return &lazyBool{done: true} }

// markUnions sets unionsBelow on n and every node with a union at or
// below it, so that walks skip the rest.
func markUnions(n *node) bool {
	if n == nil {
		return false
	}
	below := len(n.unions) > 0
	for _, p := range n.props {
		below = markUnions(p.node) || below
	}
	below = markUnions(n.items) || below
	below = markUnions(n.values) || below
	n.unionsBelow = below
	return below
}

// childPath is the instance path of the value under key k of n.
func childPath(n *node, at *field.Path, k string) *field.Path {
	if n.isMap() {
		return at.Key(k)
	}
	return at.Child(k)
}

// firstByKey indexes the items of a list-map by key, first item first.
func firstByKey(n *node, list []interface{}) map[string]int {
	out := make(map[string]int, len(list))
	for i, item := range list {
		k := tupleKey(n.items, n.mapKeys, item)
		if _, dup := out[k]; !dup {
			out[k] = i
		}
	}
	return out
}

// ratchetEqual is the apiserver's test of an unchanged node
// (CorrelatedObject.CachedDeepEqual): values compared as stored, so 1 and
// 1.0 differ; objects and maps key by key; list-map items by key, in any
// order; other lists item by item in order. A key that has no schema (an
// unknown field kept by x-kubernetes-preserve-unknown-fields, the
// metadata of the root, which schemas do not describe field by field)
// correlates with nothing, so the object holding it is never unchanged.
func ratchetEqual(n *node, a, b interface{}) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch y := b.(type) {
	case map[string]interface{}:
		x, ok := a.(map[string]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range y {
			ov, found := x[k]
			c := n.child(k)
			if !found || c == nil || !ratchetEqual(c, ov, v) {
				return false
			}
		}
		return true
	case []interface{}:
		x, ok := a.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		if n == nil || n.listType != "map" || n.items == nil {
			return reflect.DeepEqual(x, y)
		}
		byKey := firstByKey(n, x)
		for _, item := range y {
			j, found := byKey[tupleKey(n.items, n.mapKeys, item)]
			if !found || !ratchetEqual(n.items, x[j], item) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// judgeUnion adds a violation for each way obj, a value of n, breaks u.
// A member is present when its property is present and not null; "", 0,
// false, {} and [] are present, but for a member whose zero value reads
// as unset (isSet). An absent or null discriminator reads as "", which
// selects nothing.
func (w *walker) judgeUnion(n *node, u union, obj map[string]interface{}, at *field.Path) {
	var present []string
	for _, m := range u.members {
		if isSet(obj, m) {
			present = append(present, m.name)
		}
	}
	if u.discriminator == "" {
		switch {
		case len(present) > 1:
			w.add(at, n, kindUnionTooMany, unionTooManyDetail(u, present))
		case len(present) == 0 && u.exactlyOne:
			w.add(at, n, kindUnionNone, unionNoneDetail(u))
		}
		return
	}
	// A discriminator that is not a string, which the schema refuses,
	// is present and selects nothing.
	raw := obj[u.discriminator]
	d, isString := raw.(string)
	if raw == nil {
		d, isString = "", true
	}
	for _, name := range present {
		if m := u.member(name); !isString || d != m.value {
			w.add(at.Child(name), n, kindUnionNotSelected, unionNotSelectedDetail(u, m))
		}
	}
	if !u.exactlyOne {
		return
	}
	if m, ok := u.selected(d); ok && isString && !isSet(obj, m) {
		w.add(at.Child(m.name), n, kindUnionSelectedUnset, unionSelectedUnsetDetail(u, m))
	}
}

func (u union) member(name string) unionMember {
	for _, m := range u.members {
		if m.name == name {
			return m
		}
	}
	return unionMember{name: name}
}

// selected returns the member the discriminator value d selects; none
// when d is the value of no member, the KEP's way to say "nothing".
func (u union) selected(d string) (unionMember, bool) {
	for _, m := range u.members {
		if m.value == d {
			return m, true
		}
	}
	return unionMember{}, false
}
