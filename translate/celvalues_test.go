package translate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// celValueCases are declarations over values that the apiserver's CEL sees
// otherwise than they are stored: properties whose names read as CEL
// escapes, which the apiserver's object == skips.
var celValueCases = []verdictCase{{
	name:   "escape-like-property-names",
	values: "I",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    properties:
      __meta__: {type: string, maxLength: 8}
      __kind__: {type: string, maxLength: 8}
      x__dash__y: {type: string, maxLength: 8}
      x-y: {type: string, maxLength: 8}
      __namespace__: {type: string, maxLength: 8}
      namespace: {type: string, maxLength: 8}
      foo__bar__baz: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{spec: {__meta__: a, __kind__: a, x__dash__y: a, x-y: a, __namespace__: a, namespace: a, foo__bar__baz: a}}`,
			`{spec: {__meta__: a, __kind__: a, x__dash__y: a, x-y: a, __namespace__: a, namespace: a, foo__bar__baz: a}}`, "I"},
		{`{spec: {__meta__: a}}`, `{spec: {__meta__: b}}`, ""},
		{`{spec: {__kind__: a}}`, `{spec: {__kind__: b}}`, ""},
		// == would compare x-y twice and x__dash__y never.
		{`{spec: {x__dash__y: a, x-y: a}}`, `{spec: {x__dash__y: b, x-y: a}}`, ""},
		{`{spec: {__namespace__: a, namespace: a}}`, `{spec: {__namespace__: b, namespace: a}}`, ""},
		{`{spec: {foo__bar__baz: a}}`, `{spec: {foo__bar__baz: b}}`, ""},
		{`{spec: {__meta__: a}}`, `{spec: {}}`, ""},
	},
}, {
	// Entries compared inline: items of an atomic list, values of a map.
	name:   "escape-like-names-in-entries",
	values: "I",
	schema: `
type: object
properties:
  steps:
    type: array
    maxItems: 4
    x-kubernetes-mutability: %s
    items:
      type: object
      properties:
        __meta__: {type: string, maxLength: 8}
  byName:
    type: object
    maxProperties: 4
    x-kubernetes-mutability: %s
    additionalProperties:
      type: object
      properties:
        __meta__: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{steps: [{__meta__: a}], byName: {k: {__meta__: a}}}`, `{steps: [{__meta__: a}], byName: {k: {__meta__: a}}}`, "I"},
		{`{steps: [{__meta__: a}]}`, `{steps: [{__meta__: b}]}`, ""},
		{`{byName: {k: {__meta__: a}}}`, `{byName: {k: {__meta__: b}}}`, ""},
	},
}, {
	// The apiserver's == on a list-map looks key properties up by their
	// escaped names and compares the items with the object ==: both miss
	// __kind__ and __meta__.
	name:   "list-map-keyed-by-escape-like-name",
	values: "I",
	schema: `
type: object
properties:
  whole:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [__kind__]
    x-kubernetes-mutability: %s
    items:
      type: object
      required: [__kind__]
      properties:
        __kind__: {type: string, maxLength: 8}
        __meta__: {type: string, maxLength: 8}
  items:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [__kind__]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [__kind__]
      x-kubernetes-mutability: %s
      properties:
        __kind__: {type: string, maxLength: 8}
        __meta__: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{whole: [{__kind__: a, __meta__: x}, {__kind__: b}], items: [{__kind__: a, __meta__: x}, {__kind__: b}]}`,
			`{whole: [{__kind__: a, __meta__: x}, {__kind__: b}], items: [{__kind__: a, __meta__: x}, {__kind__: b}]}`, "I"},
		{`{whole: [{__kind__: a, __meta__: x}, {__kind__: b}]}`, `{whole: [{__kind__: a, __meta__: z}, {__kind__: b}]}`, ""},
		{`{whole: [{__kind__: a}, {__kind__: b}]}`, `{whole: [{__kind__: b}, {__kind__: a}]}`, ""},
		{`{items: [{__kind__: a, __meta__: x}]}`, `{items: [{__kind__: a, __meta__: z}]}`, ""},
		{`{items: [{__kind__: a}, {__kind__: b}]}`, `{items: [{__kind__: b}, {__kind__: a}]}`, "I"},
		{`{items: [{__kind__: a}]}`, `{items: [{__kind__: b}]}`, ""},
	},
}}

func TestCELValues(t *testing.T) {
	runVerdicts(t, celValueCases, translate.AllKubeVersions())
}

// TestCELValueRules pins the rule shapes the cases above rely on.
func TestCELValueRules(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		want         []string
	}{{
		name:   "object with an escape-like property name",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable, properties: {__meta__: {type: string, maxLength: 8}, a: {type: string, maxLength: 8}}}}}`,
		want: []string{
			"has(self.spec) == has(oldSelf.spec)",
			"(has(self.__underscores__meta__underscores__) ? has(oldSelf.__underscores__meta__underscores__) && self.__underscores__meta__underscores__ == oldSelf.__underscores__meta__underscores__ : !has(oldSelf.__underscores__meta__underscores__)) && (has(self.a) ? has(oldSelf.a) && self.a == oldSelf.a : !has(oldSelf.a))",
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := translate.Translate(crdWith(t, c.schema), translate.Options{})
			if err != nil {
				t.Fatalf("Translate: %v", err)
			}
			var got []string
			for _, g := range res.Generated {
				got = append(got, g.Rule.Rule)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Translate(%s) rules =\n%s\nwant\n%s", c.schema, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestCELValueRefusals checks the refusals of values CEL cannot compare
// as stored, with their full messages.
func TestCELValueRefusals(t *testing.T) {
	const root = "spec.versions[0].schema.openAPIV3Schema"
	const forbidden = ": Forbidden: cannot be translated exactly: "
	cases := []struct {
		name, schema string
		want         []string
	}{{
		name:   "set of objects with an escape-like property name",
		schema: `{type: object, properties: {s: {type: array, maxItems: 4, x-kubernetes-list-type: set, x-kubernetes-key-mutability: AddOnly, items: {type: object, x-kubernetes-map-type: atomic, properties: {__meta__: {type: string, maxLength: 8}}}}}}`,
		want:   []string{root + ".properties[s].x-kubernetes-key-mutability" + forbidden + "items of a set are its keys, and values at s[*] contain lists of type set or map, nullable properties, properties whose names read as CEL escapes (such as __meta__ or x__dash__y), or nullable objects or lists as items or map values, which CEL's == does not compare strictly"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := translate.Translate(crdWith(t, c.schema), translate.Options{})
			var terr *translate.Error
			if !errors.As(err, &terr) {
				t.Fatalf("Translate = %v, want *translate.Error", err)
			}
			var got []string
			for _, p := range terr.Problems {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("Translate(%s) problems =\n%s\nwant\n%s", c.schema, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
