package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// setItemCases declare a whole set of atomic objects immutable where CEL's
// == on the items is not strict (a nullable property, an escape-like name,
// an inner set): the sets are compared index by index (semantics.md 2.3).
var setItemCases = []verdictCase{{
	name:   "set-of-objects-compared-by-index",
	values: "I",
	schema: `
type: object
properties:
  tags:
    type: array
    maxItems: 4
    x-kubernetes-list-type: set
    x-kubernetes-mutability: %s
    items:
      type: object
      x-kubernetes-map-type: atomic
      properties:
        a: {type: string, maxLength: 4, nullable: true}
        __meta__: {type: integer}
        s:
          type: array
          maxItems: 2
          x-kubernetes-list-type: set
          items: {type: string, maxLength: 2}`,
	transitions: []transition{
		{`{"tags": [{"a": "x"}]}`, `{"tags": [{"a": "x"}]}`, "I"},
		{`{"tags": [{"a": null}]}`, `{"tags": [{}]}`, "I"},
		{`{"tags": [{"a": "x"}]}`, `{"tags": [{"a": "x", "__meta__": 1}]}`, ""},
		{`{"tags": [{"__meta__": 1}]}`, `{"tags": [{"__meta__": 2}]}`, ""},
		{`{"tags": [{"s": ["a", "b"]}]}`, `{"tags": [{"s": ["b", "a"]}]}`, ""},
		{`{"tags": [{"a": "x"}, {"a": "y"}]}`, `{"tags": [{"a": "y"}, {"a": "x"}]}`, ""},
		{`{"tags": [{"a": "x"}]}`, `{"tags": [{"a": "x"}, {"a": "y"}]}`, ""},
	},
}}

func TestSetItemsByIndex(t *testing.T) {
	runVerdicts(t, setItemCases, testcrd.KubeVersions(t))
}
