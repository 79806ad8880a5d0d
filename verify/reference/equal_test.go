package reference

import (
	"testing"
)

func TestEqual(t *testing.T) {
	object := &node{props: []prop{{name: "a"}, {name: "b"}}}
	mapNode := &node{values: &node{}}
	list := func(vs ...interface{}) []interface{} { return vs }
	m := func(kv ...interface{}) map[string]interface{} {
		out := map[string]interface{}{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	tests := []struct {
		name string
		n    *node
		a, b interface{}
		want bool
	}{
		{"int and float", nil, int64(1), 1.0, true},
		{"int and int", nil, 1, int64(1), true},
		{"float and float", nil, 0.5, 0.5, true},
		{"different numbers", nil, int64(1), 1.5, false},
		{"no rounding into equality", nil, int64(1<<53 + 1), float64(1 << 53), false},
		{"huge float", nil, int64(-1 << 63), float64(-1 << 63), true},
		{"number and string", nil, int64(1), "1", false},
		{"strings", nil, "a", "a", true},
		{"bools", nil, true, false, false},
		{"null and null", nil, nil, nil, true},
		{"null and empty", nil, nil, "", false},
		{"lists in order", nil, list("a", "b"), list("a", "b"), true},
		{"lists reordered", nil, list("a", "b"), list("b", "a"), false},
		{"lists of different length", nil, list("a"), list("a", "a"), false},
		{"list and map", nil, list(), m(), false},
		{"object drops null properties", object, m("a", nil), m(), true},
		{"schemaless object drops null properties", nil, m("x", nil, "y", 1.0), m("y", int64(1)), true},
		{"map keeps null values", mapNode, m("a", nil), m(), false},
		{"map null values equal", mapNode, m("a", nil), m("a", nil), true},
		{"nested numbers", object, m("a", list(int64(2))), m("a", list(2.0)), true},
		{"different values", object, m("a", "x"), m("a", "y"), false},
		// Strings compare as stored, whatever their format: the apiserver's
		// CEL takes these pairs for equal timestamps, durations and bytes.
		{"one instant, two offsets", nil, "2024-05-01T10:00:00Z", "2024-05-01T12:00:00+02:00", false},
		{"one duration, two units", nil, "1h", "60m", false},
		{"one byte, two encodings", nil, "YQ==", "YR==", false},
		// Property names are keys as stored, never unescaped.
		{"escape-like names", &node{props: []prop{{name: "__meta__"}, {name: "x__dash__y"}, {name: "x-y"}}},
			m("__meta__", "a", "x__dash__y", "a", "x-y", "b"), m("__meta__", "b", "x__dash__y", "b", "x-y", "b"), false},
		{"escape-like name beside its plain one", &node{props: []prop{{name: "x__dash__y"}, {name: "x-y"}}},
			m("x__dash__y", "a", "x-y", "b"), m("x__dash__y", "b", "x-y", "b"), false},
	}
	for _, tt := range tests {
		if got := equal(tt.n, tt.a, tt.b); got != tt.want {
			t.Errorf("%s: equal(%#v, %#v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		// Keys of sets and list-maps rely on canonical agreeing with equal.
		if got := canonical(tt.n, tt.a) == canonical(tt.n, tt.b); got != tt.want {
			t.Errorf("%s: canonical(%#v) == canonical(%#v) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestViolationText(t *testing.T) {
	c := mustChecker(t, `
type: object
properties:
  foo: {type: string, x-kubernetes-mutability: AddOnly}
  bar: {type: string, x-kubernetes-mutability: RemoveOnly}
  baz: {type: string, x-kubernetes-mutability: Immutable}
  m:
    type: object
    x-kubernetes-key-mutability: Immutable
    additionalProperties: {type: string}
  l:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name, port]
    x-kubernetes-key-mutability: AddOnly
    items:
      type: object
      properties:
        name: {type: string}
        port: {type: integer}`)
	got := check(t, c, `{foo: a, baz: b, m: {a: "1"}, l: [{name: x, port: 1}, {name: z}]}`,
		`{bar: a, baz: c, m: {b: "1"}, l: [{name: x, port: 1}]}`)
	want := []string{
		`bar: presence: RemoveOnly: field was added; it may only be removed (declared at .bar)`,
		`baz: value: Immutable: value changed from "b" to "c" (declared at .baz)`,
		`foo: presence: AddOnly: field was removed; it may only be added (declared at .foo)`,
		`l: keys: AddOnly: keys removed: {"name":"z","port":null} (declared at .l)`,
		`m: keys: Immutable: keys removed: "a"; keys added: "b" (declared at .m)`,
	}
	if len(got) != len(want) {
		t.Fatalf("Check = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("Check()[%d] = %s, want %s", i, got[i], want[i])
		}
	}
}

func TestShownIsCut(t *testing.T) {
	long := "ääääääääääääääääääääääääääääääääääääääääääääääääääääääääääääääääääää"
	got := shown(long)
	want := `"` + string([]rune(long)[:maxShown-1]) + "..."
	if got != want {
		t.Errorf("shown(%q) = %q, want %q", long, got, want)
	}
}
