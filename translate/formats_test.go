package translate_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
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
// formatsKeyCases are list-maps keyed by a byte string, under the
// opt-in: the apiserver pairs items by the stored key, so a key field
// exists before and after only where it is the same stored string.
var formatsKeyCases = []verdictCase{{
	name:   "list-map-keyed-by-bytes",
	values: "I",
	schema: `
type: object
properties:
  l:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [id]
    items:
      type: object
      required: [id]
      x-kubernetes-update: [NoModify]
      x-mut2cel-formats: CompareAsValues
      properties:
        id: {type: string, format: byte, maxLength: 16, x-kubernetes-update: [NoModify], x-mut2cel-formats: CompareAsValues}
        at: {type: string, format: date-time, x-kubernetes-mutability: %s, x-mut2cel-formats: CompareAsValues}`,
	transitions: []transition{
		{`{l: [{id: YQ==, at: "2024-05-01T10:00:00Z"}]}`, `{l: [{id: YQ==, at: "2024-05-01T12:00:00+02:00"}]}`, "I"},
		{`{l: [{id: YQ==, at: "2024-05-01T10:00:00Z"}]}`, `{l: [{id: YQ==, at: "2024-05-01T10:00:01Z"}]}`, ""},
		{`{l: [{id: YQ==}]}`, `{l: [{id: YR==}]}`, "I"},
		{`{l: [{id: "+/8="}]}`, `{l: [{id: "+/8="}]}`, ""},
		{`{l: [{id: "+/8="}]}`, `{l: []}`, "I"},
	},
}, {
	// The key field alone: it exists before and after only where the
	// item's stored key is the same, and a rule compares it there, which
	// fails on a key CEL cannot read.
	name:   "key-field-of-a-list-map",
	values: "I",
	schema: `
type: object
properties:
  l:
    type: array
    maxItems: 4
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [id]
    items:
      type: object
      required: [id]
      properties:
        id: {type: string, format: byte, maxLength: 16, x-kubernetes-mutability: %s, x-mut2cel-formats: CompareAsValues}`,
	transitions: []transition{
		{`{l: [{id: YQ==}]}`, `{l: [{id: YR==}]}`, "I"},
		{`{l: [{id: "+/8="}]}`, `{l: [{id: "+/8="}]}`, ""},
	},
}}

// formatsSetCases compare sets whose items hold strings CEL may not read:
// a list CEL builds with map() compares its items without passing on a
// failure, so such sets are compared index by index.
var formatsSetCases = []verdictCase{{
	name:   "sets-of-lists-of-bytes",
	values: "I",
	schema: `
type: object
properties:
  m:
    type: object
    maxProperties: 4
    x-kubernetes-mutability: %s
    x-mut2cel-formats: CompareAsValues
    additionalProperties:
      type: array
      maxItems: 4
      x-kubernetes-list-type: set
      items: {type: array, maxItems: 3, items: {type: string, format: byte, maxLength: 16}}
  s:
    type: array
    maxItems: 4
    x-kubernetes-list-type: set
    x-kubernetes-mutability: %s
    x-mut2cel-formats: CompareAsValues
    items: {type: string, format: byte, maxLength: 16}`,
	transitions: []transition{
		{`{m: {a: [[YQ==]]}}`, `{m: {a: [[YR==]]}}`, "I"},
		{`{m: {a: [[YQ==]]}}`, `{m: {a: [[Yg==]]}}`, ""},
		{`{m: {a: [["+/8="]]}}`, `{m: {a: [["+/8="]]}}`, ""},
		{`{m: {a: [["+/8="]]}}`, `{m: {a: [[YQ==]]}}`, ""},
		{`{m: {a: [[YQ==]]}}`, `{m: {a: [["+/8="]]}}`, ""},
		{`{s: [YQ==]}`, `{s: [YR==]}`, "I"},
		{`{s: ["+/8="]}`, `{s: [YQ==]}`, ""},
		{`{s: ["+/8="]}`, `{s: ["+/8="]}`, ""},
	},
}}

func TestFormatsAsValues(t *testing.T) {
	for _, c := range slices.Concat(formatsCases, formatsKeyCases, formatsSetCases) {
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

// formatsSchema declares .spec Immutable in the schema, with the modifier
// where asValues is set.
func formatsSchema(asValues bool) string {
	modifier := ""
	if asValues {
		modifier = ", x-mut2cel-formats: CompareAsValues"
	}
	return `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable` + modifier +
		`, properties: {at: {type: string, format: date-time}, other: {type: string, maxLength: 8}}}}}`
}

// TestFormatsFrontEnds: the modifier written in the schema, in the
// annotation and in a declarations file gives the same translation, and
// is kept in the annotation of the output like the declaration beside
// it; without it the declaration is refused, naming it.
func TestFormatsFrontEnds(t *testing.T) {
	inSchema, err := translate.Translate(crdWith(t, formatsSchema(true)), translate.Options{})
	if err != nil {
		t.Fatalf("Translate with the modifier in the schema: %v", err)
	}
	annotated := crdWith(t, formatsSchema(false))
	deleteExt(t, annotated, "x-kubernetes-mutability")
	annotated["metadata"].(map[string]interface{})["annotations"] = map[string]interface{}{
		"mut2cel.io/declarations": "v1:\n  .spec:\n    x-kubernetes-mutability: Immutable\n    x-mut2cel-formats: CompareAsValues\n",
	}
	inAnnotation, err := translate.Translate(annotated, translate.Options{})
	if err != nil {
		t.Fatalf("Translate with the modifier in the annotation: %v", err)
	}
	sets, err := decl.ParseFile("d.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .spec: {x-kubernetes-mutability: Immutable, x-mut2cel-formats: CompareAsValues}
`))
	if err != nil {
		t.Fatal(err)
	}
	bare := crdWith(t, formatsSchema(false))
	deleteExt(t, bare, "x-kubernetes-mutability")
	inFile, err := translate.Translate(bare, translate.Options{Declarations: sets})
	if err != nil {
		t.Fatalf("Translate with the modifier in a declarations file: %v", err)
	}
	runWide, err := translate.Translate(crdWith(t, formatsSchema(false)), translate.Options{CompareFormatsAsValues: true})
	if err != nil {
		t.Fatalf("Translate with the run-wide option: %v", err)
	}
	want := rulesOf(inSchema)
	for name, res := range map[string]*translate.Result{"annotation": inAnnotation, "file": inFile, "run-wide": runWide} {
		if got := rulesOf(res); got != want {
			t.Errorf("the modifier in the %s gives the rules\n%s\nwant, as in the schema,\n%s", name, got, want)
		}
	}
	for name, res := range map[string]*translate.Result{"schema": inSchema, "annotation": inAnnotation, "file": inFile} {
		annotations, _ := res.Translated["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})
		kept, _ := annotations["mut2cel.io/declarations"].(string)
		schemas, _ := yaml.Marshal(res.Translated["spec"])
		if !strings.Contains(kept, "x-mut2cel-formats: CompareAsValues") || strings.Contains(string(schemas), "x-mut2cel-formats") {
			t.Errorf("the modifier in the %s: annotation %q, schemas\n%s\nwant it in the annotation only", name, kept, schemas)
		}
	}
	_, err = translate.Translate(crdWith(t, formatsSchema(false)), translate.Options{})
	if err == nil || !strings.Contains(err.Error(), "x-mut2cel-formats: CompareAsValues beside the declaration (or the run-wide option)") {
		t.Errorf("Translate without the modifier = %v, want a refusal naming it", err)
	}
}

// TestFormatsModifierAlone: a modifier with nothing to modify is an error
// where it was written, in every front end, and in the reference checker.
func TestFormatsModifierAlone(t *testing.T) {
	const schemaAlone = `{type: object, properties: {spec: {type: object, properties: {at: {type: string, format: date-time, x-mut2cel-formats: CompareAsValues}}}}}`
	_, err := translate.Translate(crdWith(t, schemaAlone), translate.Options{})
	if err == nil || !strings.Contains(err.Error(), "properties[at].x-mut2cel-formats: Invalid value: modifies the declarations beside it") {
		t.Errorf("Translate(%s) = %v, want the modifier alone refused at its node", schemaAlone, err)
	}
	var raw map[string]interface{}
	if err := yaml.Unmarshal([]byte(schemaAlone), &raw); err != nil {
		t.Fatal(err)
	}
	if _, err := reference.NewChecker(raw); err == nil || !strings.Contains(err.Error(), "x-mut2cel-formats") {
		t.Errorf("NewChecker(%s) = %v, want the modifier alone refused", schemaAlone, err)
	}
	sets, err := decl.ParseFile("d.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .spec.other:
    x-mut2cel-formats: CompareAsValues
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = translate.Translate(crdWith(t, formatsSchema(false)), translate.Options{Declarations: sets, CompareFormatsAsValues: true})
	if err == nil || !strings.Contains(err.Error(), "d.yaml:5: version v1, .spec.other: x-mut2cel-formats: Invalid value: modifies the declarations beside it") {
		t.Errorf("Translate with a modifier alone in a file = %v, want it refused at its line", err)
	}
	_, err = translate.Translate(crdWith(t, `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable, x-mut2cel-formats: Always}}}`), translate.Options{})
	if err == nil || !strings.Contains(err.Error(), `x-mut2cel-formats: Unsupported value: "Always": supported value: "CompareAsValues"`) {
		t.Errorf("Translate with a modifier of another value = %v, want it refused", err)
	}
}

func rulesOf(res *translate.Result) string {
	var rules []string
	for _, g := range res.Generated {
		rules = append(rules, g.Rule.Rule)
	}
	return strings.Join(rules, "\n")
}

// deleteExt removes key from every node of the CRD's schema.
func deleteExt(t *testing.T, doc map[string]interface{}, key string) {
	t.Helper()
	var walk func(v interface{})
	walk = func(v interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			delete(x, key)
			for _, c := range x {
				walk(c)
			}
		case []interface{}:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc["spec"])
}
