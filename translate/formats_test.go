package translate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// formatsCases are declarations with the modifier x-mut2cel-formats:
// CompareAsValues (semantics.md 8, "Formatted strings compared as
// values"): respellings of one value pass, changes of the value do not,
// and a string the apiserver's CEL cannot read fails every rule that
// reads it.
var formatsCases = []verdictCase{{
	name: "values",
	schema: `
type: object
properties:
  spec:
    type: object
    x-kubernetes-mutability: %s
    x-mut2cel-formats: CompareAsValues
    properties:
      name: {type: string, maxLength: 8}
      since: {type: string, format: date-time}
      ttl: {type: string, format: duration, maxLength: 16}
      key: {type: string, format: byte, maxLength: 64}
      times: {type: array, maxItems: 4, items: {type: string, format: date-time}}
      byName: {type: object, maxProperties: 4, additionalProperties: {type: string, format: byte, maxLength: 16}}`,
	transitions: []transition{
		{`{spec: {since: "2024-05-01T10:00:00Z"}}`, `{spec: {since: "2024-05-01T12:00:00+02:00"}}`, "IAR"},
		{`{spec: {since: "2024-05-01T10:00:00Z"}}`, `{spec: {since: "2024-05-01T10:00:00.000Z"}}`, "IAR"},
		{`{spec: {since: "2024-05-01T10:00:00Z"}}`, `{spec: {since: "2024-05-01T10:00:01Z"}}`, ""},
		{`{spec: {ttl: 1h}}`, `{spec: {ttl: 60m}}`, "IAR"},
		{`{spec: {ttl: 1h}}`, `{spec: {ttl: "1 hour"}}`, "IAR"},
		{`{spec: {ttl: 1h}}`, `{spec: {ttl: 2h}}`, ""},
		{`{spec: {key: YQ==}}`, `{spec: {key: YR==}}`, "IAR"},
		{`{spec: {key: YQ==}}`, `{spec: {key: Yg==}}`, ""},
		{`{spec: {times: ["2024-05-01T10:00:00Z"]}}`, `{spec: {times: ["2024-05-01T11:00:00+01:00"]}}`, "IAR"},
		{`{spec: {byName: {a: YQ==}}}`, `{spec: {byName: {a: YR==}}}`, "IAR"},
		// Unreadable: every rule that reads them fails, changed or not.
		{`{spec: {name: a, since: "2024-05-01t10:00:00z"}}`, `{spec: {name: a, since: "2024-05-01t10:00:00z"}}`, ""},
		{`{spec: {key: "+/8="}}`, `{spec: {key: "+/8="}}`, ""},
		{`{spec: {byName: {a: "+/8="}}}`, `{spec: {byName: {a: "+/8="}}}`, ""},
		{`{spec: {name: a}}`, `{spec: {name: a}}`, "IAR"},
		{`{spec: {name: a}}`, `{}`, "R"},
	},
}, {
	name: "presence",
	schema: `
type: object
properties:
  at:
    type: string
    format: date-time
    x-kubernetes-mutability: %s
    x-mut2cel-formats: CompareAsValues
  spec:
    type: object
    properties:
      a:
        type: object
        properties:
          key: {type: string, format: byte, maxLength: 16, x-kubernetes-mutability: %s, x-mut2cel-formats: CompareAsValues}`,
	transitions: []transition{
		{`{}`, `{at: "2024-05-01T10:00:00Z"}`, "A"},
		{`{}`, `{at: "2024-05-01t10:00:00z"}`, "A"},
		{`{at: "2024-05-01T10:00:00Z"}`, `{}`, "R"},
		{`{at: "2024-05-01t10:00:00z"}`, `{}`, "R"},
		{`{at: "2024-05-01T10:00:00Z"}`, `{at: "2024-05-01T12:00:00+02:00"}`, "IAR"},
		{`{at: "2024-05-01T10:00:00Z"}`, `{at: "2024-05-01t10:00:00z"}`, ""},
		{`{at: "2024-05-01t10:00:00z"}`, `{at: "2024-05-01T10:00:00Z"}`, ""},
		{`{at: "2024-05-01t10:00:00z"}`, `{at: "2024-05-01t10:00:00z"}`, ""},
		{`{}`, `{spec: {a: {key: "+/8="}}}`, "A"},
		{`{spec: {a: {key: "+/8="}}}`, `{spec: {}}`, "R"},
		{`{spec: {a: {key: YQ==}}}`, `{spec: {a: {key: YR==}}}`, "IAR"},
		{`{spec: {a: {key: YQ==}}}`, `{spec: {a: {key: "+/8="}}}`, ""},
		{`{spec: {a: {key: "+/8="}}}`, `{spec: {a: {key: "+/8="}}}`, ""},
	},
}, {
	name:   "update-constraints",
	values: "I",
	schema: `
type: object
properties:
  noSet: {type: string, format: byte, maxLength: 16, x-kubernetes-update: [NoSet], x-mut2cel-formats: CompareAsValues}
  noUnset: {type: string, format: byte, maxLength: 16, x-kubernetes-update: [NoUnset], x-mut2cel-formats: CompareAsValues}
  noModify: {type: string, format: duration, maxLength: 16, x-kubernetes-update: [NoModify], x-mut2cel-formats: CompareAsValues}`,
	transitions: []transition{
		{`{noSet: YQ==}`, `{noSet: "+/8="}`, "I"},
		{`{noSet: "+/8="}`, `{noSet: YQ==}`, ""},
		{`{noSet: "+/8="}`, `{}`, "I"},
		{`{noUnset: YQ==}`, `{noUnset: "+/8="}`, ""},
		{`{noUnset: "+/8="}`, `{noUnset: YQ==}`, "I"},
		{`{}`, `{noUnset: "+/8="}`, "I"},
		{`{noModify: 1h}`, `{noModify: 3600s}`, "I"},
		{`{noModify: 1h}`, `{noModify: 1h1s}`, ""},
		{`{noModify: 1h}`, `{}`, "I"},
	},
}}

// TestFormatsAsValues checks the verdicts of the cases above through the
// apiserver's CEL validator and the reference checker. Unlike
// runVerdicts, a rule may fail to evaluate, which denies the update, but
// only on an update holding a string CEL cannot read.
func TestFormatsAsValues(t *testing.T) {
	for _, c := range formatsCases {
		values := c.values
		if values == "" {
			values = "IAR"
		}
		for i := range values {
			value := testcrd.ValueNames[values[i]]
			schemaYAML := strings.ReplaceAll(c.schema, "%s", value)
			checker := checkerFor(t, schemaYAML)
			for _, v := range []translate.KubeVersion{translate.DefaultKubeVersion, {Major: 1, Minor: 33}} {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, value, v), func(t *testing.T) {
					s := translated(t, schemaYAML, v)
					for _, tr := range c.transitions {
						wantDeny := !strings.ContainsRune(tr.allow, rune(values[i]))
						deny, msg := celDenies(t, s, tr.old, tr.new)
						if deny != wantDeny {
							t.Errorf("update %s -> %s: CEL denied=%v (%s), want denied=%v", tr.old, tr.new, deny, msg, wantDeny)
						}
						if failedToEvaluate(msg) && !holdsUnreadable(tr.old+tr.new) {
							t.Errorf("update %s -> %s: a rule failed to evaluate (%s), on no unreadable string", tr.old, tr.new, msg)
						}
						if deny, msg := nativeDenies(t, checker, s, tr.old, tr.new); deny != wantDeny {
							t.Errorf("update %s -> %s: reference checker denied=%v (%s), want denied=%v", tr.old, tr.new, deny, msg, wantDeny)
						}
					}
				})
			}
		}
	}
}

// holdsUnreadable reports whether an object written in a test holds one
// of the strings above that the apiserver's CEL cannot read.
func holdsUnreadable(obj string) bool {
	return strings.Contains(obj, "t10:00:00z") || strings.Contains(obj, "+/8=")
}
