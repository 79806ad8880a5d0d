package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// numberKeyCases are list-maps keyed by numbers (semantics.md 2.2, 2.3):
// items are paired by the numeric value of their keys, whatever their
// spelling, which the apiserver's own pairing does not do. The objects are
// JSON so that 1.0 and 1e0 reach the apiserver's validator as floats, as a
// request that spells them so.
var numberKeyCases = []verdictCase{{
	name: "items-keyed-by-a-number",
	schema: `
type: object
properties:
  items:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [w]
    items:
      type: object
      required: [w]
      properties:
        w: {type: number}
        v: {type: string, maxLength: 8, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{"items": [{"w": 1, "v": "a"}]}`, `{"items": [{"w": 1.0, "v": "b"}]}`, ""},
		{`{"items": [{"w": 1, "v": "a"}]}`, `{"items": [{"w": 1e0, "v": "a"}]}`, "IAR"},
		{`{"items": [{"w": 1}]}`, `{"items": [{"w": 1.0, "v": "a"}]}`, "A"},
		{`{"items": [{"w": 1, "v": "a"}]}`, `{"items": [{"w": 1.0}]}`, "R"},
		{`{"items": [{"w": 1, "v": "a"}]}`, `{"items": [{"w": 2.0, "v": "b"}]}`, "IAR"},
		{`{"items": [{"w": 0.5, "v": "a"}, {"w": 2, "v": "b"}]}`, `{"items": [{"w": 2.0, "v": "b"}, {"w": 0.5, "v": "c"}]}`, ""},
	},
}, {
	// Compound keys: the apiserver formats a float key with six decimals,
	// so it would pair 0.1234562 with 0.1234561.
	name: "items-keyed-by-a-number-and-a-string",
	schema: `
type: object
properties:
  items:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [w, name]
    items:
      type: object
      required: [w, name]
      properties:
        w: {type: number}
        name: {type: string, maxLength: 4}
        v: {type: string, maxLength: 8, x-kubernetes-mutability: %s}`,
	transitions: []transition{
		{`{"items": [{"w": 0.1234561, "name": "x", "v": "c"}, {"w": 0.1234562, "name": "x", "v": "b"}]}`, `{"items": [{"w": 0.1234561, "name": "x", "v": "c"}, {"w": 0.1234562, "name": "x", "v": "c"}]}`, ""},
		{`{"items": [{"w": 0.1234561, "name": "x", "v": "c"}, {"w": 0.1234562, "name": "x", "v": "b"}]}`, `{"items": [{"w": 0.1234562, "name": "x", "v": "b"}, {"w": 0.1234561, "name": "x", "v": "c"}]}`, "IAR"},
		{`{"items": [{"w": 1, "name": "x", "v": "a"}]}`, `{"items": [{"w": 1.0, "name": "x", "v": "a"}]}`, "IAR"},
		{`{"items": [{"w": 1, "name": "x", "v": "a"}]}`, `{"items": [{"w": 1.0, "name": "x", "v": "b"}]}`, ""},
	},
}, {
	name: "keys-of-a-number-keyed-list",
	schema: `
type: object
properties:
  items:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [w]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [w]
      properties:
        w: {type: number}
        v: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{"items": [{"w": 1}]}`, `{"items": [{"w": 1.0}]}`, "IAR"},
		{`{"items": [{"w": 1}]}`, `{"items": [{"w": 1.0}, {"w": 2}]}`, "A"},
		{`{"items": [{"w": 1}, {"w": 2}]}`, `{"items": [{"w": 2.0}]}`, "R"},
		{`{"items": [{"w": 1}, {"w": 2}]}`, `{"items": [{"w": 2e0}, {"w": 1.0}]}`, "IAR"},
	},
}, {
	name: "object-holding-a-number-keyed-list",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    properties:
      items:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [w]
        items:
          type: object
          required: [w]
          properties:
            w: {type: number}
            v: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{"spec": {"items": [{"w": 1, "v": "a"}]}}`, `{"spec": {"items": [{"w": 1.0, "v": "a"}]}}`, "IAR"},
		{`{"spec": {"items": [{"w": 1, "v": "a"}]}}`, `{"spec": {"items": [{"w": 1.0, "v": "b"}]}}`, ""},
		{`{"spec": {"items": [{"w": 1.5, "v": "a"}, {"w": 2}]}}`, `{"spec": {"items": [{"w": 2}, {"w": 1.5, "v": "a"}]}}`, ""},
	},
}}

func TestNumberKeys(t *testing.T) {
	runVerdicts(t, numberKeyCases, testcrd.KubeVersions(t))
}
