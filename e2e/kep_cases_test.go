package e2e

// kepCases are KEP examples 1 to 10 (6 is a schema the translator refuses),
// with the verdicts of docs/semantics.md, which reads "disallowed for
// RemoveOnly" in example 9 as the typo it is. Items and values get bounds so
// that the generated rules fit the cost budget; the updates are the KEP's.
var kepCases = []kepCase{{
	name:   "example1",
	values: "IAR",
	schema: `
type: object
properties:
  foo: {type: string, maxLength: 16, x-kubernetes-mutability: %s}`,
	transitions: []kepTransition{
		{`{}`, `{foo: a}`, "A"},
		{`{foo: a}`, `{}`, "R"},
		{`{foo: a}`, `{foo: b}`, ""},
		{`{foo: a}`, `{foo: a}`, "IAR"},
	},
}, {
	name:   "example2",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    items:
      type: object
      properties: {n: {type: string, maxLength: 16}}
      x-kubernetes-mutability: %s`,
	transitions: []kepTransition{
		{`{}`, `{foo: [{n: a}]}`, "I"},
		{`{foo: [{n: a}]}`, `{}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: [{n: a}, {n: b}]}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: []}`, "I"},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}]}`, ""},
		{`{foo: [{n: a}]}`, `{foo: [{n: b}, {n: a}]}`, ""},
	},
}, {
	name:   "example3",
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
        k: {type: string, maxLength: 16}
        v: {type: integer}
      x-kubernetes-mutability: %s`,
	transitions: []kepTransition{
		{`{}`, `{foo: [{k: a}]}`, "I"},
		{`{foo: [{k: a}]}`, `{}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: [{k: a}, {k: b}]}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: []}`, "I"},
		{`{foo: [{k: a}]}`, `{foo: [{k: b}]}`, "I"},
		{`{foo: [{k: a}, {k: b}]}`, `{foo: [{k: b}, {k: a}]}`, "I"},
		{`{foo: [{k: a, v: 1}]}`, `{foo: [{k: a, v: 2}]}`, ""},
	},
}, {
	name:   "example4",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-list-type: set
    items: {type: string, maxLength: 16, x-kubernetes-mutability: %s}`,
	transitions: []kepTransition{
		{`{}`, `{foo: [a]}`, "I"},
		{`{foo: [a]}`, `{}`, "I"},
		{`{foo: [a]}`, `{foo: [a, b]}`, "I"},
		{`{foo: [a]}`, `{foo: []}`, "I"},
		{`{foo: [a]}`, `{foo: [b]}`, "I"},
		{`{foo: [a]}`, `{foo: [b, a]}`, "I"},
	},
}, {
	name:   "example4b",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-list-type: set
    items:
      type: object
      maxProperties: 8
      x-kubernetes-mutability: %s
      x-kubernetes-map-type: atomic
      additionalProperties: {type: string, maxLength: 16}`,
	transitions: []kepTransition{
		{`{foo: [{a: "1"}]}`, `{foo: [{a: "2"}]}`, "I"},
		{`{foo: [{a: "1"}]}`, `{foo: [{b: "1"}, {a: "1"}]}`, "I"},
	},
	// Server-side apply cannot type a set whose items are maps
	// ("associative list without keys has an element that's a map type"),
	// so no client can apply such an object, with or without rules.
	methods: []method{update, mergePatch},
}, {
	name:   "example5",
	values: "I",
	schema: `
type: object
properties:
  foo:
    type: object
    maxProperties: 16
    additionalProperties: {type: string, maxLength: 16, x-kubernetes-mutability: %s}`,
	transitions: []kepTransition{
		{`{}`, `{foo: {a: "1"}}`, "I"},
		{`{foo: {a: "1"}}`, `{}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, "I"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, ""},
	},
}, {
	name:   "example7",
	values: "IAR",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-key-mutability: %s
    items:
      type: object
      properties: {n: {type: string, maxLength: 16}}`,
	transitions: []kepTransition{
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
	name:   "example8",
	values: "IAR",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [k]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [k]
      properties:
        k: {type: string, maxLength: 16}
        v: {type: integer}`,
	transitions: []kepTransition{
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
	name:   "example9",
	values: "IAR",
	schema: `
type: object
properties:
  foo:
    type: array
    maxItems: 8
    x-kubernetes-list-type: set
    x-kubernetes-key-mutability: %s
    items: {type: string, maxLength: 16}`,
	transitions: []kepTransition{
		{`{}`, `{foo: []}`, "IAR"},
		{`{foo: []}`, `{}`, "IAR"},
		{`{foo: [a, b]}`, `{foo: [b, a]}`, "IAR"},
		{`{foo: [a]}`, `{foo: [a, b]}`, "A"},
		{`{foo: [a]}`, `{foo: [b, a]}`, "A"},
		{`{foo: [a]}`, `{foo: []}`, "R"},
		{`{foo: [a]}`, `{foo: [b]}`, ""},
	},
}, {
	name:   "example10",
	values: "IAR",
	schema: `
type: object
properties:
  foo:
    type: object
    maxProperties: 16
    x-kubernetes-key-mutability: %s
    additionalProperties: {type: string, maxLength: 16}`,
	transitions: []kepTransition{
		{`{}`, `{foo: {}}`, "IAR"},
		{`{foo: {}}`, `{}`, "IAR"},
		{`{foo: {a: "1"}}`, `{foo: {a: "2"}}`, "IAR"},
		{`{}`, `{foo: {a: "1"}}`, "A"},
		{`{foo: {a: "1"}}`, `{foo: {a: "1", b: "2"}}`, "A"},
		{`{foo: {a: "1"}}`, `{}`, "R"},
		{`{foo: {a: "1"}}`, `{foo: {b: "1"}}`, ""},
	},
}}
