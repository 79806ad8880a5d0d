package reference

import (
	"math"
	"reflect"
	"testing"
)

// fuzzSchema has one declaration of every shape: a field, a field under an
// optional parent, items of each list type and of a map, keys of each
// collection type, a map of lists and a schemaless immutable object; and
// x-kubernetes-update constraints on the same shapes, some next to a KEP
// value on the same node.
const fuzzSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: string, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      b:
        type: object
        x-kubernetes-update: [NoSet, NoUnset]
        properties:
          c: {type: integer, x-kubernetes-mutability: AddOnly}
          x: {type: string, nullable: true, x-kubernetes-mutability: RemoveOnly}
          k: {type: string, x-kubernetes-update: [NoUnset, NoModify]}
      l:
        type: array
        x-kubernetes-key-mutability: AddOnly
        x-kubernetes-update: [NoRemoveItem]
        items:
          type: object
          properties:
            x: {type: string, x-kubernetes-mutability: Immutable}
            v: {type: number}
      lm:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [k, v]
        x-kubernetes-key-mutability: RemoveOnly
        x-kubernetes-update: [NoAddItem, NoModify]
        items:
          type: object
          properties:
            k: {type: string}
            v: {type: integer, x-kubernetes-update: [NoSet]}
            x: {type: object, x-kubernetes-mutability: Immutable, properties: {a: {type: string}}}
      s:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-update: [NoAddItem]
        items: {type: string, x-kubernetes-mutability: AddOnly}
      m:
        type: object
        x-kubernetes-key-mutability: Immutable
        additionalProperties: {type: string, nullable: true, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      ml:
        type: object
        x-kubernetes-update: [NoUnset, NoModify]
        additionalProperties:
          type: array
          x-kubernetes-key-mutability: RemoveOnly
          x-kubernetes-update: [NoAddItem]
          items: {type: integer, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      v:
        type: object
        x-kubernetes-mutability: Immutable
        x-kubernetes-preserve-unknown-fields: true`

// FuzzCheck builds an old object from the fuzz data, mostly but not always
// shaped like fuzzSchema, and a new object from the same data with a few
// bytes edited, so that most updates are small, as real ones are. It checks
// the invariants of doc.go.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte{1, 0, 6, 3, 1, 4, 0}, []byte{6, 1})
	f.Add([]byte{1, 0, 6, 2, 3, 8, 2, 7, 2, 4}, []byte{8, 0, 9, 3})
	c := mustChecker(f, fuzzSchema)
	f.Fuzz(func(t *testing.T, data, edits []byte) {
		old, new := build(data), build(edit(data, edits))
		for _, x := range []map[string]interface{}{old, new} {
			if got := c.Check(x, x); len(got) != 0 {
				t.Fatalf("Check(%v, same) = %v, want none", x, got)
			}
			if got := c.Check(x, mapValues(x, renumber)); len(got) != 0 {
				t.Fatalf("Check(%v, renumbered) = %v, want none", x, got)
			}
		}
		checkUpdate(t, c, old, new)
	})
}

// checkUpdate asserts the invariants of one update with no known verdict.
func checkUpdate(t *testing.T, c *Checker, old, new map[string]interface{}) {
	t.Helper()
	oldCopy, newCopy := mapValues(old, same), mapValues(new, same)
	first := c.Check(old, new)
	if again := c.Check(old, new); !reflect.DeepEqual(first, again) {
		t.Fatalf("Check(%v, %v) = %v, then %v", old, new, first, again)
	}
	if !isSorted(first) {
		t.Fatalf("Check(%v, %v) = %v, not sorted", old, new, first)
	}
	if equal(c.root, old, new) && len(first) != 0 {
		t.Fatalf("Check(%v, %v) = %v, want none for strictly equal objects", old, new, first)
	}
	if equal(c.root, old, new) != (canonical(c.root, old) == canonical(c.root, new)) {
		t.Fatalf("equal(%v, %v) disagrees with canonical", old, new)
	}
	if !reflect.DeepEqual(old, oldCopy) || !reflect.DeepEqual(new, newCopy) {
		t.Fatalf("Check modified its input")
	}
}

func isSorted(vs []Violation) bool {
	c := append([]Violation(nil), vs...)
	sortViolations(c)
	return reflect.DeepEqual(c, vs)
}

// mapValues deep-copies an object, passing every scalar through f.
func mapValues(obj map[string]interface{}, f func(interface{}) interface{}) map[string]interface{} {
	return mapValue(obj, f).(map[string]interface{})
}

func mapValue(v interface{}, f func(interface{}) interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(x))
		for k, e := range x {
			out[k] = mapValue(e, f)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = mapValue(e, f)
		}
		return out
	}
	return f(v)
}

func same(v interface{}) interface{} { return v }

// renumber turns integers into floats and integral floats into integers, as
// a JSON round trip may.
func renumber(v interface{}) interface{} {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	}
	return v
}

// fuzzKeys are the property names of fuzzSchema, so generated objects reach
// its declarations.
var fuzzKeys = []string{"spec", "a", "b", "c", "x", "l", "v", "lm", "k", "s", "m", "ml"}

var fuzzStrings = []string{"", "a", "b", "TCP"}

// gen reads JSON values from fuzz bytes; past the end every byte is zero.
type gen struct {
	data []byte
	pos  int
}

func (g *gen) next() byte {
	if g.pos >= len(g.data) {
		return 0
	}
	g.pos++
	return g.data[g.pos-1]
}

// edit applies edits, read as pairs (position, byte), to a copy of data; a
// position past the end appends.
func edit(data, edits []byte) []byte {
	out := append([]byte(nil), data...)
	for i := 0; i+1 < len(edits); i += 2 {
		if pos := int(edits[i]); pos < len(out) {
			out[pos] = edits[i+1]
		} else {
			out = append(out, edits[i+1])
		}
	}
	return out
}

// build reads an object; an even first byte puts spec first so most inputs
// reach the declarations.
func build(data []byte) map[string]interface{} {
	g := &gen{data: data}
	if g.next()%2 == 1 {
		return g.object(0)
	}
	spec := g.object(1)
	root := g.object(0)
	root["spec"] = spec
	return root
}

func (g *gen) value(depth int) interface{} {
	b := g.next()
	if depth > 4 {
		b %= 6 // scalars only, so values stay small
	}
	switch b % 9 {
	case 0:
		return nil
	case 1:
		return b&0x10 != 0
	case 2:
		return int64(g.next()%5) - 1
	case 3:
		return []float64{1, 0.5, -2, 1e300}[g.next()%4]
	case 4, 5:
		return fuzzStrings[int(g.next())%len(fuzzStrings)]
	case 6, 7:
		return g.object(depth + 1)
	}
	return g.list(depth + 1)
}

func (g *gen) object(depth int) map[string]interface{} {
	n := int(g.next() % 5)
	out := make(map[string]interface{}, n)
	for i := 0; i < n; i++ {
		key := fuzzKeys[int(g.next())%len(fuzzKeys)]
		out[key] = g.valueFor(key, depth)
	}
	return out
}

// valueFor mostly gives a property the shape fuzzSchema declares for it.
func (g *gen) valueFor(key string, depth int) interface{} {
	if depth > 4 || g.next()%4 == 0 {
		return g.value(depth)
	}
	switch key {
	case "l", "lm", "s":
		return g.list(depth + 1)
	case "b", "m", "ml", "v":
		return g.object(depth + 1)
	}
	return g.value(depth)
}

func (g *gen) list(depth int) []interface{} {
	n := int(g.next() % 4)
	out := make([]interface{}, n)
	for i := range out {
		out[i] = g.value(depth)
	}
	return out
}
