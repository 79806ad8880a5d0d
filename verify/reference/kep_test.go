package reference

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// kepExample is one example of the KEP "Immutable Fields": a schema template
// in which $V stands for the declared value and $T for the list or map type
// line, and the transitions the KEP lists.
type kepExample struct {
	name    string
	schema  string
	values  []string // the values the example lists
	types   []string // replacements of $T; the KEP's "undefined" is ""
	updates []kepUpdate
}

// kepUpdate is one transition and the values that allow it: "all", "none"
// or one value.
type kepUpdate struct {
	old, new string
	allowed  string
}

var allValues = []string{immutable, addOnly, removeOnly}

func TestKEPExamples(t *testing.T) {
	for _, ex := range kepExamples {
		types := ex.types
		if types == nil {
			types = []string{""}
		}
		for _, typ := range types {
			for _, value := range ex.values {
				schema := strings.NewReplacer("$V", value, "$T", typ).Replace(ex.schema)
				t.Run(ex.name+"/"+value+"/"+typ, func(t *testing.T) {
					runKEPUpdates(t, mustChecker(t, schema), value, ex.updates)
				})
			}
		}
	}
}

func runKEPUpdates(t *testing.T, c *Checker, value string, updates []kepUpdate) {
	t.Helper()
	for _, u := range updates {
		got := check(t, c, u.old, u.new)
		want := u.allowed == "all" || u.allowed == value
		if (len(got) == 0) != want {
			t.Errorf("Check(%s -> %s) = %v, want allowed %v", u.old, u.new, got, want)
		}
	}
}

var listTypes = []string{"", "x-kubernetes-list-type: atomic"}

var mapTypes = []string{"", "x-kubernetes-map-type: granular", "x-kubernetes-map-type: atomic"}

var kepExamples = []kepExample{{
	name: "example 1: mutable object, immutable field",
	schema: `
type: object
properties:
  foo:
    type: string
    x-kubernetes-mutability: $V`,
	values: allValues,
	updates: []kepUpdate{
		{`{}`, `{foo: a}`, addOnly},
		{`{foo: a}`, `{}`, removeOnly},
		{`{foo: a}`, `{foo: b}`, "none"},
		{`{foo: a}`, `{foo: a}`, "all"},
		{`{}`, `{}`, "all"},
	},
}, {
	name: "example 2: immutable items, atomic list",
	schema: `
type: object
properties:
  foo:
    type: array
    $T
    items:
      type: object
      properties:
        v: {type: string}
      x-kubernetes-mutability: $V`,
	values: []string{immutable},
	types:  listTypes,
	updates: []kepUpdate{
		{`{}`, `{foo: [{v: a}]}`, "all"},
		{`{foo: [{v: a}]}`, `{}`, "all"},
		{`{foo: [{v: a}]}`, `{foo: [{v: a}, {v: b}]}`, "all"},
		{`{foo: [{v: a}]}`, `{foo: []}`, "all"},
		{`{foo: [{v: a}]}`, `{foo: [{v: b}]}`, "none"},
		{`{foo: [{v: a}]}`, `{foo: [{v: b}, {v: a}]}`, "none"},
	},
}, {
	name: "example 3: immutable items, list-map",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [k]
    items:
      type: object
      properties:
        k: {type: string}
        v: {type: integer}
      x-kubernetes-mutability: $V`,
	values: []string{immutable},
	updates: []kepUpdate{
		{`{}`, `{foo: [{k: a}]}`, "all"},
		{`{foo: [{k: a}]}`, `{}`, "all"},
		{`{foo: [{k: a}]}`, `{foo: [{k: a}, {k: b}]}`, "all"},
		{`{foo: [{k: a}]}`, `{foo: []}`, "all"},
		{`{foo: [{k: a}]}`, `{foo: [{k: b}]}`, "all"},
		{`{foo: [{k: a}, {k: b}]}`, `{foo: [{k: b}, {k: a}]}`, "all"},
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: a, v: 2}]}`, "none"},
		// The KEP's TODO, resolved in semantics.md 7: removal and addition
		// in one update is a change.
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: b}, {k: a, v: 2}]}`, "none"},
	},
}, {
	name: "example 4: immutable items, set",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: set
    items:
      type: string
      x-kubernetes-mutability: $V`,
	values: []string{immutable},
	updates: []kepUpdate{
		{`{}`, `{foo: [a]}`, "all"},
		{`{foo: [a]}`, `{}`, "all"},
		{`{foo: [a]}`, `{foo: [a, b]}`, "all"},
		{`{foo: [a]}`, `{foo: []}`, "all"},
		{`{foo: [a]}`, `{foo: [b]}`, "all"},
		{`{foo: [a]}`, `{foo: [b, a]}`, "all"},
	},
}, {
	name: "example 4b: immutable items, set of atomic maps",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: set
    items:
      type: object
      x-kubernetes-mutability: $V
      x-kubernetes-map-type: atomic
      additionalProperties:
        type: string`,
	values: []string{immutable},
	updates: []kepUpdate{
		{`{foo: [{a: "1"}]}`, `{foo: [{a: "2"}]}`, "all"},
		{`{foo: [{a: "1"}, {b: "2"}]}`, `{foo: [{b: "2"}, {a: "1"}]}`, "all"},
		{`{foo: [{a: "1"}]}`, `{foo: [{a: "1", b: "2"}, {a: "1"}]}`, "all"},
	},
}, {
	// The KEP writes type: array for this map; a map is type: object.
	name: "example 5: immutable values, map",
	schema: `
type: object
properties:
  foo:
    type: object
    $T
    additionalProperties:
      type: string
      x-kubernetes-mutability: $V`,
	values: []string{immutable},
	types:  mapTypes,
	updates: []kepUpdate{
		{`{}`, `{foo: {a: "1"}}`, "all"},
		{`{foo: {a: "1"}}`, `{}`, "all"},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, "all"},
		{`{foo: {a: "1"}}`, `{foo: {}}`, "all"},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, "all"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, "none"},
	},
}, {
	name: "example 7: key mutability, atomic list",
	schema: `
type: object
properties:
  foo:
    type: array
    $T
    x-kubernetes-key-mutability: $V
    items:
      type: object
      properties:
        v: {type: string}`,
	values: allValues,
	types:  listTypes,
	updates: []kepUpdate{
		{`{}`, `{foo: []}`, "all"},
		{`{foo: []}`, `{}`, "all"},
		{`{foo: [{v: a}]}`, `{foo: [{v: b}]}`, "all"},
		{`{}`, `{foo: [{v: a}]}`, addOnly},
		{`{foo: [{v: a}]}`, `{foo: [{v: a}, {v: b}]}`, addOnly},
		{`{foo: [{v: a}]}`, `{foo: [{v: b}, {v: a}]}`, addOnly},
		{`{foo: [{v: a}]}`, `{}`, removeOnly},
		{`{foo: [{v: a}]}`, `{foo: []}`, removeOnly},
	},
}, {
	// The KEP's schema has only k; v is added so that it survives pruning.
	name: "example 8: key mutability, list-map",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [k]
    x-kubernetes-key-mutability: $V
    items:
      type: object
      properties:
        k: {type: string}
        v: {type: integer}`,
	values: allValues,
	updates: []kepUpdate{
		{`{}`, `{foo: []}`, "all"},
		{`{foo: []}`, `{}`, "all"},
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: a, v: 2}]}`, "all"},
		{`{foo: [{k: a}, {k: b}]}`, `{foo: [{k: b}, {k: a}]}`, "all"},
		{`{}`, `{foo: [{k: a}]}`, addOnly},
		{`{foo: [{k: a}]}`, `{foo: [{k: a}, {k: b}]}`, addOnly},
		{`{foo: [{k: a}]}`, `{}`, removeOnly},
		{`{foo: [{k: a}]}`, `{foo: []}`, removeOnly},
		{`{foo: [{k: a}]}`, `{foo: [{k: b}]}`, "none"},
	},
}, {
	name: "example 9: key mutability, set",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: set
    x-kubernetes-key-mutability: $V
    items:
      type: string`,
	values: allValues,
	updates: []kepUpdate{
		{`{}`, `{foo: []}`, "all"},
		{`{foo: []}`, `{}`, "all"},
		{`{foo: [a, b]}`, `{foo: [b, a]}`, "all"},
		{`{foo: [a]}`, `{foo: [a, b]}`, addOnly},
		{`{foo: [a]}`, `{foo: [b, a]}`, addOnly},
		// The KEP says "disallowed for RemoveOnly": a typo (semantics.md 4).
		{`{foo: [a]}`, `{foo: []}`, removeOnly},
		{`{foo: [a]}`, `{foo: [b]}`, "none"},
	},
}, {
	name: "example 10: key mutability, map",
	schema: `
type: object
properties:
  foo:
    type: object
    $T
    x-kubernetes-key-mutability: $V
    additionalProperties:
      type: string`,
	values: allValues,
	types:  mapTypes,
	updates: []kepUpdate{
		{`{}`, `{foo: {}}`, "all"},
		{`{foo: {}}`, `{}`, "all"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, "all"},
		{`{}`, `{foo: {a: "1"}}`, addOnly},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, addOnly},
		{`{foo: {a: "1"}}`, `{}`, removeOnly},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, "none"},
	},
}}

// Example 6 is a schema error: an object's properties are not a key set.
func TestKEPExample6(t *testing.T) {
	for _, value := range allValues {
		schema := `
type: object
properties:
  spec:
    type: object
    x-kubernetes-key-mutability: ` + value + `
    properties:
      foo: {type: string}`
		_, err := NewChecker(testcrd.Decode(t, schema))
		want := "openAPIV3Schema.properties[spec].x-kubernetes-key-mutability: Forbidden: " +
			"only allowed on type: array or on type: object with an additionalProperties schema; " +
			"the properties of an object are not a key set: put x-kubernetes-mutability on each property instead"
		if err == nil || err.Error() != want {
			t.Errorf("NewChecker(example 6, %s) = %v, want %s", value, err, want)
		}
	}
}
