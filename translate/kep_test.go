package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// kepExamples are the examples of the KEP "Immutable Fields", with the
// verdicts of docs/semantics.md (which fixes the example 9 typo).
var kepExamples = []verdictCase{{
	name: "example1-field",
	schema: `
type: object
properties:
  foo: {type: string, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{}`, `{foo: a}`, "A"},
		{`{foo: a}`, `{}`, "R"},
		{`{foo: a}`, `{foo: b}`, ""},
		{`{foo: a}`, `{foo: a}`, "IAR"},
		{`{}`, `{}`, "IAR"},
	},
}, {
	name:   "example2-atomic-list-items",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    items:
      type: object
      properties: {n: {type: string}}
      x-kubernetes-mutability: %s`,
	transitions: []transition{
		{`{}`, `{foo: [{n: a}]}`, "I"},
		{`{foo: [{n: a}]}`, `{}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: [{n: a}, {n: b}]}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: []}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}]}`, ""},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}, {n: a}]}`, ""},
	},
}, {
	name:   "example3-list-map-items",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [k]
    items:
      type: object
      required: [k]
      properties:
        k: {type: string, maxLength: 8}
        v: {type: integer}
      x-kubernetes-mutability: %s`,
	transitions: []transition{
		{`{}`, `{foo: [{k: a}]}`, "I"},
		{`{foo: [{k: a}]}`, `{}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: [{k: a}, {k: b}]}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: []}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: [{k: b}]}`, "I"},
		{`{foo: [{k: a}, {k: b}]}`, `{foo: [{k: b}, {k: a}]}`, "I"},
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: a, v: 2}]}`, ""},
	},
}, {
	name:   "example4-set-items",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: set
    items: {type: string, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{}`, `{foo: [a]}`, "I"},
		{`{foo: [a]}`, `{}`, "I"},
		{`{foo: [a]}`, `{foo: [a, b]}`, "I"},
		{`{foo: [a]}`, `{foo: []}`, "I"},
		{`{foo: [a]}`, `{foo: [b]}`, "I"},
		{`{foo: [a]}`, `{foo: [b, a]}`, "I"},
	},
}, {
	name:   "example4b-set-of-atomic-maps",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-list-type: set
    items:
      type: object
      x-kubernetes-mutability: %s
      x-kubernetes-map-type: atomic
      additionalProperties: {type: string}`,
	transitions: []transition{
		{`{foo: [{a: "1"}]}`, `{foo: [{a: "2"}]}`, "I"},
		{`{foo: [{a: "1"}]}`, `{foo: [{b: "1"}, {a: "1"}]}`, "I"},
	},
}, {
	name:   "example5-map-values",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: object
    maxProperties: 64
    additionalProperties: {type: string, maxLength: 64, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{}`, `{foo: {a: "1"}}`, "I"},
		{`{foo: {a: "1"}}`, `{}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, ""},
	},
}, {
	name: "example7-atomic-list-keys",
	schema: `
type: object
properties:
  foo:
    type: array
    x-kubernetes-key-mutability: %s
    items:
      type: object
      properties: {n: {type: string}}`,
	transitions: []transition{
		{`{}`, `{foo: []}`, "IAR"},
		{`{foo: []}`, `{}`, "IAR"},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}]}`, "IAR"},
		{`{}`, `{foo: [{n: a}]}`, "A"},
		{`{foo: [{n: a}]}`, `{foo: [{n: a}, {n: b}]}`, "A"},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}, {n: a}]}`, "A"},
		{`{foo: [{n: a}]}`, `{}`, "R"},
		{`{foo: [{n: a}]}`, `{foo: []}`, "R"},
	},
}, {
	name: "example8-list-map-keys",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 16
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [k]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [k]
      properties:
        k: {type: string, maxLength: 16}
        v: {type: integer}`,
	transitions: []transition{
		{`{}`, `{foo: []}`, "IAR"},
		{`{foo: []}`, `{}`, "IAR"},
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: a, v: 2}]}`, "IAR"},
		{`{foo: [{k: a}, {k: b}]}`, `{foo: [{k: b}, {k: a}]}`, "IAR"},
		{`{}`, `{foo: [{k: a}]}`, "A"},
		{`{foo: [{k: a}]}`, `{foo: [{k: a}, {k: b}]}`, "A"},
		{`{foo: [{k: a}]}`, `{}`, "R"},
		{`{foo: [{k: a}]}`, `{foo: []}`, "R"},
		{`{foo: [{k: a}]}`, `{foo: [{k: b}]}`, ""},
	},
}, {
	name: "example9-set-keys",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 16
    x-kubernetes-list-type: set
    x-kubernetes-key-mutability: %s
    items: {type: string, maxLength: 16}`,
	transitions: []transition{
		{`{}`, `{foo: []}`, "IAR"},
		{`{foo: []}`, `{}`, "IAR"},
		{`{foo: [a, b]}`, `{foo: [b, a]}`, "IAR"},
		{`{foo: [a]}`, `{foo: [a, b]}`, "A"},
		{`{foo: [a]}`, `{foo: [b, a]}`, "A"},
		{`{foo: [a]}`, `{foo: []}`, "R"}, // the KEP's "disallowed for RemoveOnly" is a typo
		{`{foo: [a]}`, `{foo: [b]}`, ""},
	},
}, {
	name: "example10-map-keys",
	schema: `
type: object
properties:
  foo:
    type: object
    maxProperties: 16
    x-kubernetes-key-mutability: %s
    additionalProperties: {type: string}`,
	transitions: []transition{
		{`{}`, `{foo: {}}`, "IAR"},
		{`{foo: {}}`, `{}`, "IAR"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, "IAR"},
		{`{}`, `{foo: {a: "1"}}`, "A"},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, "A"},
		{`{foo: {a: "1"}}`, `{}`, "R"},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, ""},
	},
}}

func TestKEPExamples(t *testing.T) {
	runVerdicts(t, kepExamples, translate.AllKubeVersions())
}
