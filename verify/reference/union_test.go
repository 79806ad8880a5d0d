package reference

import (
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// unionConfig is one of the four kinds of union: at most one or exactly
// one member, with or without the discriminator type.
type unionConfig struct {
	name             string
	exactly, discrim bool
}

var unionConfigs = []unionConfig{
	{"AtMostOne", false, false},
	{"ExactlyOne", true, false},
	{"AtMostOne+discriminator", false, true},
	{"ExactlyOne+discriminator", true, true},
}

// unionNode is an object with the union of s, i, o and l (values S, I, O,
// L), the string type, and two other properties, k (a list-map key) and
// other.
func unionNode(c unionConfig) map[string]interface{} {
	u := map[string]interface{}{"fields-to-discriminateBy": map[string]interface{}{"s": "S", "i": "I", "o": "O", "l": "L"}}
	if c.discrim {
		u["discriminator"] = "type"
	}
	if c.exactly {
		u["exactlyOne"] = true
	}
	return map[string]interface{}{
		"type": "object", extUnions: []interface{}{u},
		"properties": map[string]interface{}{
			"type":  map[string]interface{}{"type": "string"},
			"s":     map[string]interface{}{"type": "string"},
			"i":     map[string]interface{}{"type": "integer"},
			"o":     map[string]interface{}{"type": "object", "properties": map[string]interface{}{"x": map[string]interface{}{"type": "string"}}},
			"l":     map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "string"}},
			"k":     map[string]interface{}{"type": "string"},
			"other": map[string]interface{}{"type": "integer"},
		},
	}
}

// unionPlace puts the union's node somewhere in a schema, and a value of
// it at the same place in an object.
type unionPlace struct {
	name   string
	prefix string // instance path of the node in the objects of place
	schema func(n map[string]interface{}) map[string]interface{}
	// object returns an object with vs at the node's place: several
	// values make several entries of a collection; outside is the value
	// of spec.outside, a field beside the node.
	object func(outside interface{}, vs ...map[string]interface{}) map[string]interface{}
	// correlated says whether the apiserver pairs the node's new value
	// with its old one (not the items of atomic lists).
	correlated bool
}

func specWith(props map[string]interface{}) map[string]interface{} {
	props["outside"] = map[string]interface{}{"type": "integer"}
	return map[string]interface{}{"type": "object", "properties": map[string]interface{}{
		"spec": map[string]interface{}{"type": "object", "properties": props}}}
}

func specObject(outside interface{}, key string, v interface{}) map[string]interface{} {
	return map[string]interface{}{"spec": map[string]interface{}{key: v, "outside": outside}}
}

var unionPlaces = []unionPlace{{
	name: "root", prefix: "", correlated: true,
	schema: func(n map[string]interface{}) map[string]interface{} {
		n["properties"].(map[string]interface{})["spec"] = specWith(map[string]interface{}{})["properties"].(map[string]interface{})["spec"]
		return n
	},
	object: func(outside interface{}, vs ...map[string]interface{}) map[string]interface{} {
		obj := jsonvalue.CopyMap(vs[0])
		obj["spec"] = map[string]interface{}{"outside": outside}
		return obj
	},
}, {
	name: "nested", prefix: "spec.u", correlated: true,
	schema: func(n map[string]interface{}) map[string]interface{} {
		return specWith(map[string]interface{}{"u": n})
	},
	object: func(outside interface{}, vs ...map[string]interface{}) map[string]interface{} {
		return specObject(outside, "u", vs[0])
	},
}, {
	name: "list-map item", prefix: "spec.lm[0]", correlated: true,
	schema: func(n map[string]interface{}) map[string]interface{} {
		n["required"] = []interface{}{"k"}
		return specWith(map[string]interface{}{"lm": map[string]interface{}{
			"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []interface{}{"k"}, "items": n}})
	},
	object: func(outside interface{}, vs ...map[string]interface{}) map[string]interface{} {
		return specObject(outside, "lm", items(vs, "k"))
	},
}, {
	name: "atomic-list item", prefix: "spec.al[0]", correlated: false,
	schema: func(n map[string]interface{}) map[string]interface{} {
		return specWith(map[string]interface{}{"al": map[string]interface{}{"type": "array", "items": n}})
	},
	object: func(outside interface{}, vs ...map[string]interface{}) map[string]interface{} {
		return specObject(outside, "al", items(vs, ""))
	},
}, {
	name: "map value", prefix: "spec.m[a]", correlated: true,
	schema: func(n map[string]interface{}) map[string]interface{} {
		return specWith(map[string]interface{}{"m": map[string]interface{}{"type": "object", "additionalProperties": n}})
	},
	object: func(outside interface{}, vs ...map[string]interface{}) map[string]interface{} {
		m := map[string]interface{}{}
		for i, v := range vs {
			m[string(rune('a'+i))] = jsonvalue.CopyMap(v)
		}
		return specObject(outside, "m", m)
	},
}}

// items makes list items of vs; with key, item i gets key "1", "2", ...
// unless it has one.
func items(vs []map[string]interface{}, key string) []interface{} {
	var out []interface{}
	for i, v := range vs {
		item := jsonvalue.CopyMap(v)
		if _, ok := item[key]; key != "" && !ok {
			item[key] = string(rune('1' + i))
		}
		out = append(out, item)
	}
	return out
}

// unionCase is one value of the union's node and, per config in the
// order of unionConfigs, the violations it makes: "path kind" with the
// path relative to the node, ";"-separated, sorted.
type unionCase struct {
	value string
	want  [4]string
}

const (
	tooMany  = kindUnionTooMany
	none     = kindUnionNone
	notSel   = kindUnionNotSelected
	selUnset = kindUnionSelectedUnset
)

var unionCases = []unionCase{
	{`{}`, [4]string{"", ". " + none, "", ""}},
	{`{other: 1}`, [4]string{"", ". " + none, "", ""}},
	{`{s: null, type: null}`, [4]string{"", ". " + none, "", ""}},
	{`{s: ""}`, [4]string{"", "", "s " + notSel, "s " + notSel}},
	{`{i: 0}`, [4]string{"", "", "i " + notSel, "i " + notSel}},
	{`{o: {}}`, [4]string{"", "", "o " + notSel, "o " + notSel}},
	{`{l: []}`, [4]string{"", "", "l " + notSel, "l " + notSel}},
	{`{s: "", i: 0}`, [4]string{". " + tooMany, ". " + tooMany, "i " + notSel + ";s " + notSel, "i " + notSel + ";s " + notSel}},
	{`{type: S}`, [4]string{"", ". " + none, "", "s " + selUnset}},
	{`{type: S, s: x}`, [4]string{"", "", "", ""}},
	{`{type: S, i: 1}`, [4]string{"", "", "i " + notSel, "i " + notSel + ";s " + selUnset}},
	{`{type: S, s: x, i: 0}`, [4]string{". " + tooMany, ". " + tooMany, "i " + notSel, "i " + notSel}},
	{`{type: L, l: [a], o: {}}`, [4]string{". " + tooMany, ". " + tooMany, "o " + notSel, "o " + notSel}},
	{`{type: Nothing}`, [4]string{"", ". " + none, "", ""}},
	{`{type: "", other: 2}`, [4]string{"", ". " + none, "", ""}},
	{`{type: Nothing, s: x}`, [4]string{"", "", "s " + notSel, "s " + notSel}},
	{`{type: s, s: x}`, [4]string{"", "", "s " + notSel, "s " + notSel}}, // values are case-sensitive
	{`{type: null, s: x}`, [4]string{"", "", "s " + notSel, "s " + notSel}},
}

// relative renders violations as "path kind" relative to the node at
// prefix, sorted and joined by ";"; the node itself is ".".
func relative(vs []Violation, prefix string) string {
	var out []string
	for _, v := range vs {
		p := strings.TrimPrefix(strings.TrimPrefix(v.Path, prefix), ".")
		if p == "" {
			p = "."
		}
		out = append(out, p+" "+v.Kind)
	}
	sort.Strings(out)
	return strings.Join(out, ";")
}

func unionChecker(t *testing.T, place unionPlace, c unionConfig) *Checker {
	t.Helper()
	ch, err := NewChecker(place.schema(unionNode(c)))
	if err != nil {
		t.Fatalf("NewChecker(%s, %s) = %v", place.name, c.name, err)
	}
	return ch
}

// TestUnionCreate judges every case at every place on create, and on an
// update from a valid old node, which changes the node and so checks it
// as a create does.
func TestUnionCreate(t *testing.T) {
	for _, place := range unionPlaces {
		for ci, c := range unionConfigs {
			ch := unionChecker(t, place, c)
			for _, uc := range unionCases {
				v := testcrd.Decode(t, uc.value)
				obj := place.object(int64(0), v)
				if got := relative(ch.CheckCreate(obj), place.prefix); got != uc.want[ci] {
					t.Errorf("%s, %s: CheckCreate(%s) = %q, want %q", place.name, c.name, uc.value, got, uc.want[ci])
				}
				old := place.object(int64(0), map[string]interface{}{"other": int64(7), "type": "S", "s": "x"})
				if got := relative(ch.Check(old, obj), place.prefix); got != uc.want[ci] {
					t.Errorf("%s, %s: Check(valid -> %s) = %q, want %q", place.name, c.name, uc.value, got, uc.want[ci])
				}
			}
		}
	}
}

// TestUnionUpdateRatcheting updates objects stored before the union was
// declared (the old node breaks it): the node is judged again only where
// the apiserver's ratcheting would run its rule.
func TestUnionUpdateRatcheting(t *testing.T) {
	bad := map[string]interface{}{"s": "x", "i": int64(1)} // two members: breaks every kind of union
	good := map[string]interface{}{"type": "S", "s": "y"}
	changed := map[string]interface{}{"s": "x", "i": int64(1), "other": int64(3)}
	for _, place := range unionPlaces {
		for _, c := range unionConfigs {
			ch := unionChecker(t, place, c)
			cases := []struct {
				name     string
				old, new map[string]interface{}
				judged   bool
			}{
				{"unchanged", place.object(int64(0), bad), place.object(int64(0), bad), false},
				{"node changed", place.object(int64(0), bad), place.object(int64(0), changed), true},
				// The root holds spec.outside, so only there does the
				// change reach the node.
				{"beside the node", place.object(int64(0), bad), place.object(int64(1), bad), place.name == "root"},
				// 1 and 1.0 differ as stored values: the apiserver's
				// ratcheting compares those, not CEL values.
				{"integer as float", place.object(int64(0), bad), place.object(int64(0), map[string]interface{}{"s": "x", "i": float64(1)}), true},
			}
			if place.name != "root" && place.name != "nested" {
				// Another entry: a list-map item and a map value keep
				// their pairing; an atomic list item has none, and its
				// list changed.
				cases = append(cases, struct {
					name     string
					old, new map[string]interface{}
					judged   bool
				}{"entry added", place.object(int64(0), bad), place.object(int64(0), bad, good), !place.correlated})
			}
			for _, tc := range cases {
				got := ch.Check(tc.old, tc.new)
				if judged := len(got) > 0; judged != tc.judged {
					t.Errorf("%s, %s, %s: Check = %v, want judged %v", place.name, c.name, tc.name, got, tc.judged)
				}
			}
		}
	}
}

// TestUnionUpdateListOrder reorders list items around a node that breaks
// its union: list-map items keep their old selves, atomic list items have
// none once the list changed.
func TestUnionUpdateListOrder(t *testing.T) {
	bad := map[string]interface{}{"s": "x", "i": int64(1)}
	good := map[string]interface{}{"type": "S", "s": "y"}
	c := unionConfigs[0]
	for _, place := range unionPlaces[2:4] {
		ch := unionChecker(t, place, c)
		old := place.object(int64(0), good, bad)
		reordered := place.object(int64(0), good, bad)
		l := reordered["spec"].(map[string]interface{})[strings.Split(strings.TrimPrefix(place.prefix, "spec."), "[")[0]].([]interface{})
		l[0], l[1] = l[1], l[0]
		got := ch.Check(old, reordered)
		if want := !place.correlated; (len(got) > 0) != want {
			t.Errorf("%s: Check(reordered) = %v, want judged %v", place.name, got, want)
		}
		if len(got) > 0 && !strings.HasPrefix(got[0].Path, place.prefix) {
			t.Errorf("%s: Check(reordered) at %s, want the bad item's new index", place.name, got[0].Path)
		}
	}
}

// TestUnionUpdateSetItems: the items of a set pair with nothing, and the
// apiserver compares a set item by item in order, so any change of the
// set, a reorder included, judges every item again.
func TestUnionUpdateSetItems(t *testing.T) {
	c := mustChecker(t, `
type: object
properties:
  s:
    type: array
    x-kubernetes-list-type: set
    items:
      type: object
      x-kubernetes-map-type: atomic
      x-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}]
      properties: {a: {type: string}, b: {type: string}}`)
	cases := []struct {
		old, new string
		want     string
	}{
		{`{s: [{a: x, b: y}]}`, `{s: [{a: x, b: y}]}`, ""},
		{`{s: [{a: x, b: y}]}`, `{s: [{a: x, b: y}, {a: z}]}`, "s[0] " + tooMany},
		{`{s: [{a: z}, {a: x, b: y}]}`, `{s: [{a: x, b: y}, {a: z}]}`, "s[0] " + tooMany},
	}
	for _, tc := range cases {
		if got := relative(check(t, c, tc.old, tc.new), ""); got != tc.want {
			t.Errorf("Check(%s -> %s) = %q, want %q", tc.old, tc.new, got, tc.want)
		}
	}
}
