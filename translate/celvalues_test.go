package translate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// celValueCases are declarations over values that the apiserver's CEL sees
// otherwise than they are stored (semantics.md 8): properties whose names
// read as CEL escapes, which the apiserver's object == skips, and strings
// with a format that CEL reads as another type.
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
}, {
	// A date has one spelling: CEL's == on the timestamps is == on the
	// strings, as values, as set items and as list-map keys.
	name: "dates",
	schema: `
type: object
properties:
  day: {type: string, format: date, x-kubernetes-mutability: %s}
  holidays:
    type: array
    maxItems: 4
    x-kubernetes-list-type: set
    x-kubernetes-key-mutability: %s
    items: {type: string, format: date}
  shifts:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [day]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [day]
      properties:
        day: {type: string, format: date}
        who: {type: string, maxLength: 8}`,
	transitions: []transition{
		{`{day: "2024-05-01"}`, `{day: "2024-05-01"}`, "IAR"},
		{`{day: "2024-05-01"}`, `{day: "2024-05-02"}`, ""},
		{`{}`, `{day: "2024-05-01"}`, "A"},
		{`{holidays: ["2024-05-01"]}`, `{holidays: ["2024-05-02"]}`, ""},
		{`{holidays: ["2024-05-01"]}`, `{holidays: ["2024-05-01", "2024-05-02"]}`, "A"},
		{`{shifts: [{day: "2024-05-01", who: a}]}`, `{shifts: [{day: "2024-05-01", who: b}]}`, "IAR"},
		{`{shifts: [{day: "2024-05-01"}]}`, `{shifts: [{day: "2024-05-02"}]}`, ""},
	},
}, {
	// Key checks on maps of date-times or bytes read no value: CEL cannot
	// read 2024-05-01t10:00:00z or +/8=, which the apiserver stores.
	name: "keys-of-maps-of-unreadable-strings",
	schema: `
type: object
properties:
  times:
    type: object
    maxProperties: 4
    x-kubernetes-key-mutability: %s
    additionalProperties: {type: string, format: date-time}
  data:
    type: object
    maxProperties: 4
    x-kubernetes-key-mutability: %s
    additionalProperties: {type: string, format: byte, maxLength: 64}`,
	transitions: []transition{
		{`{times: {a: "2024-05-01t10:00:00z"}}`, `{times: {a: "2024-05-01T12:00:00+02:00"}}`, "IAR"},
		{`{times: {a: "2024-05-01t10:00:00z"}}`, `{times: {a: "2024-05-01t10:00:00z", b: "2024-05-01T10:00:00Z"}}`, "A"},
		{`{times: {a: "2024-05-01t10:00:00z", b: "2024-05-01T10:00:00Z"}}`, `{times: {b: "2024-05-01t10:00:00z"}}`, "R"},
		{`{data: {a: "+/8="}}`, `{data: {a: "YQ=="}}`, "IAR"},
		{`{data: {a: "+/8="}}`, `{data: {a: "+/8=", b: "+/+/"}}`, "A"},
		{`{data: {a: "+/8=", b: "YR=="}}`, `{data: {b: "+/8="}}`, "R"},
		{`{data: {}}`, `{}`, "IAR"},
	},
}, {
	// Rules that never read a formatted string are not refused.
	name: "formatted-strings-beside-declarations",
	schema: `
type: object
properties:
  spec:
    type: object
    properties:
      name: {type: string, maxLength: 8, x-kubernetes-mutability: %s}
      since: {type: string, format: date-time}
      ttl: {type: string, format: duration}
      key: {type: string, format: byte, maxLength: 64}
  conditions:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [type]
    x-kubernetes-key-mutability: %s
    items:
      type: object
      required: [type]
      properties:
        type: {type: string, maxLength: 8}
        lastTransitionTime: {type: string, format: date-time}`,
	transitions: []transition{
		{`{spec: {name: a, since: "2024-05-01T10:00:00Z", key: YQ==}}`, `{spec: {name: a, since: "2024-05-01t10:00:00z", ttl: 1h, key: "+/8="}}`, "IAR"},
		{`{spec: {name: a, since: "2024-05-01t10:00:00z"}}`, `{spec: {name: b, since: "2024-05-01t10:00:00z"}}`, ""},
		{`{spec: {since: "2024-05-01t10:00:00z"}}`, `{spec: {name: a, since: "2024-05-01t10:00:00z"}}`, "A"},
		{`{conditions: [{type: a, lastTransitionTime: "2024-05-01t10:00:00z"}]}`, `{conditions: [{type: a, lastTransitionTime: "2024-05-01T12:00:00+02:00"}]}`, "IAR"},
		{`{conditions: [{type: a}]}`, `{conditions: [{type: a}, {type: b, lastTransitionTime: "2024-05-01t10:00:00z"}]}`, "A"},
		{`{conditions: [{type: a}, {type: b}]}`, `{conditions: [{type: b}]}`, "R"},
	},
}}

func TestCELValues(t *testing.T) {
	runVerdicts(t, celValueCases, testcrd.KubeVersions(t))
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
	}, {
		name:   "keys of a map of bytes",
		schema: `{type: object, properties: {data: {type: object, maxProperties: 4, x-kubernetes-key-mutability: AddOnly, additionalProperties: {type: string, format: byte, maxLength: 64}}}}`,
		want: []string{
			"!has(oldSelf.data) || size(oldSelf.data) == 0 || has(self.data)",
			"oldSelf.all(k1, self.exists(k2, k2 == k1))",
		},
	}, {
		name:   "keys of a map of dates",
		schema: `{type: object, properties: {days: {type: object, maxProperties: 4, x-kubernetes-key-mutability: AddOnly, additionalProperties: {type: string, format: date}}}}`,
		want: []string{
			"!has(oldSelf.days) || size(oldSelf.days) == 0 || has(self.days)",
			"oldSelf.all(k1, k1 in self)",
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
	// Every reason is named, not only the first: a date-time can be
	// neither compared nor tested for presence, and a list map keyed by
	// bytes can neither pair its items nor compare their keys.
	const twoReasons = ": Forbidden: cannot be translated exactly, for 2 reasons:\n  - "
	cases := []struct {
		name, schema string
		want         []string
	}{{
		name:   "date-time",
		schema: `{type: object, properties: {at: {type: string, format: date-time, x-kubernetes-mutability: Immutable}}}`,
		want: []string{root + ".properties[at].x-kubernetes-mutability" + twoReasons + "the value at at is a string with format date-time, which the apiserver's CEL reads as timestamp and compares as such (2024-05-01T10:00:00Z and 2024-05-01T12:00:00+02:00 are equal), so no rule can see every change of the stored string; to accept respellings of one value as no change, add x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option), remove the format (a pattern can check the string instead) or leave the field out of the declaration" +
			"\n  - at is a string with format date-time, and the apiserver's CEL tests whether a property is set by reading its value, which fails on spellings its write validation stores (2024-05-01t10:00:00z), so a rule on its presence would deny updates of an object holding one; to accept respellings of one value as no change, add x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option)"},
	}, {
		name:   "duration inside a declared object",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: AddOnly, properties: {a: {type: string, maxLength: 8}, ttl: {type: string, format: duration}}}}}`,
		want:   []string{root + ".properties[spec].x-kubernetes-mutability" + forbidden + "the value at spec.ttl is a string with format duration, which the apiserver's CEL reads as duration and compares as such (1h and 60m are equal), so no rule can see every change of the stored string; to accept respellings of one value as no change, add x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option), remove the format (a pattern can check the string instead) or leave the field out of the declaration"},
	}, {
		name:   "values of a map of bytes",
		schema: `{type: object, properties: {data: {type: object, maxProperties: 4, additionalProperties: {type: string, format: byte, maxLength: 64, x-kubernetes-mutability: Immutable}}}}`,
		want:   []string{root + ".properties[data].additionalProperties.x-kubernetes-mutability" + forbidden + "the value at data[*] is a string with format byte, which the apiserver's CEL reads as bytes and compares as such (YQ== and YR== are equal), so no rule can see every change of the stored string; to accept respellings of one value as no change, add x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option), remove the format (a pattern can check the string instead) or leave the field out of the declaration"},
	}, {
		name:   "set of date-times",
		schema: `{type: object, properties: {times: {type: array, maxItems: 4, x-kubernetes-list-type: set, x-kubernetes-key-mutability: AddOnly, items: {type: string, format: date-time}}}}`,
		want:   []string{root + ".properties[times].x-kubernetes-key-mutability" + forbidden + "the keys of the set times are its items as stored, which hold strings with a format that the apiserver's CEL compares as values (1h and 60m are equal), so no rule can see a key replaced by another spelling of its value; declare NoModify on the whole set with x-mut2cel-formats: CompareAsValues instead, or remove the format"},
	}, {
		name:   "list-map keyed by a duration",
		schema: `{type: object, properties: {l: {type: array, maxItems: 4, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [after], x-kubernetes-key-mutability: RemoveOnly, items: {type: object, required: [after], properties: {after: {type: string, format: duration}}}}}}`,
		want:   []string{root + ".properties[l].x-kubernetes-key-mutability" + forbidden + "the items of l are keyed by after, a string with format duration, which the apiserver's CEL reads as duration and compares as such (1h and 60m are equal), while the apiserver tells items apart by the stored strings, so no rule can pair the items as the apiserver does; remove the format (a pattern can check the string instead)"},
	}, {
		name:   "list-map keyed by bytes, compared whole",
		schema: `{type: object, properties: {l: {type: array, maxItems: 4, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [id], x-kubernetes-mutability: Immutable, items: {type: object, required: [id], properties: {id: {type: string, format: byte, maxLength: 8}}}}}}`,
		want: []string{root + ".properties[l].x-kubernetes-mutability" + twoReasons + "the items of l are keyed by id, a string with format byte, which the apiserver's CEL reads as bytes and compares as such (YQ== and YR== are equal), while the apiserver tells items apart by the stored strings, so no rule can pair the items as the apiserver does; remove the format (a pattern can check the string instead)" +
			"\n  - the value at l[*].id is a string with format byte, which the apiserver's CEL reads as bytes and compares as such (YQ== and YR== are equal), so no rule can see every change of the stored string; to accept respellings of one value as no change, add x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option), remove the format (a pattern can check the string instead) or leave the field out of the declaration"},
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

// TestNumbersBeyondDoublePrecision pins the deviation semantics.md 8
// accepts: the apiserver's CEL reads a number field as a double, so a
// change of an integer above 2^53 that the double cannot hold goes unseen,
// while the reference checker compares the stored integers.
func TestNumbersBeyondDoublePrecision(t *testing.T) {
	schemaYAML := `{type: object, properties: {n: {type: number, x-kubernetes-mutability: Immutable}}}`
	s := translated(t, schemaYAML, translate.DefaultKubeVersion)
	checker := checkerFor(t, schemaYAML)
	for _, tr := range []struct {
		old, new         string
		celDeny, refDeny bool
	}{
		{`{n: 9007199254740993}`, `{n: 9007199254740992}`, false, true},
		{`{n: 9007199254740993}`, `{n: 9007199254740994}`, true, true},
		{`{n: 1}`, `{n: 1.0}`, false, false},
	} {
		if deny, msg := celDenies(t, s, tr.old, tr.new); deny != tr.celDeny {
			t.Errorf("update %s -> %s: CEL denied=%v (%s), want %v", tr.old, tr.new, deny, msg, tr.celDeny)
		}
		if deny, msg := nativeDenies(t, checker, s, tr.old, tr.new); deny != tr.refDeny {
			t.Errorf("update %s -> %s: reference checker denied=%v (%s), want %v", tr.old, tr.new, deny, msg, tr.refDeny)
		}
	}
}
