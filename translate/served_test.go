package translate_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// servedVersion is one entry of spec.versions for servedCRD.
type servedVersion struct {
	name   string
	served bool
	schema string // openAPIV3Schema, YAML flow style
}

const webhookConversion = `{strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: "https://convert.example.com/"}}}`

// servedCRD builds a CRD whose first version is stored; conversion is the
// value of spec.conversion, "" for none.
func servedCRD(t *testing.T, conversion string, versions ...servedVersion) map[string]interface{} {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: things.example.com}\n")
	b.WriteString("spec:\n  group: example.com\n  names: {plural: things, singular: thing, kind: Thing, listKind: ThingList}\n  scope: Namespaced\n")
	if conversion != "" {
		b.WriteString("  conversion: " + conversion + "\n")
	}
	b.WriteString("  versions:\n")
	for i, v := range versions {
		b.WriteString("  - {name: " + v.name + ", served: " + boolText(v.served) + ", storage: " + boolText(i == 0) +
			", schema: {openAPIV3Schema: " + v.schema + "}}\n")
	}
	return docOf(t, b.String())
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func specSchema(a string) string {
	return `{type: object, properties: {spec: {type: object, properties: {a: ` + a + `, b: {type: string}}}}}`
}

var (
	immutableA = specSchema(`{type: string, maxLength: 8, x-kubernetes-mutability: Immutable}`)
	addOnlyA   = specSchema(`{type: string, maxLength: 8, x-kubernetes-mutability: AddOnly}`)
	plainA     = specSchema(`{type: string, maxLength: 8}`)
	noA        = `{type: object, properties: {spec: {type: object, properties: {b: {type: string}}}}}`
)

// rulesAtVersion lists the rules on spec.a of version i.
func rulesAtVersion(doc map[string]interface{}, i int) []string {
	v := doc["spec"].(map[string]interface{})["versions"].([]interface{})[i].(map[string]interface{})
	m := v["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, p := range []string{"spec", "a"} {
		m, _ = m["properties"].(map[string]interface{})[p].(map[string]interface{})
	}
	var out []string
	list, _ := m["x-kubernetes-validations"].([]interface{})
	for _, e := range list {
		out = append(out, e.(map[string]interface{})["rule"].(string))
	}
	return out
}

const (
	atA1 = "spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[a]"
	atA2 = "spec.versions[2].schema.openAPIV3Schema.properties[spec].properties[a]"
)

// TestServedVersions checks how declarations of one served version reach
// the others (docs/translation.md, "Several versions").
func TestServedVersions(t *testing.T) {
	v1 := servedVersion{"v1", true, immutableA}
	cases := []struct {
		name       string
		conversion string
		versions   []servedVersion
		annotation string // mut2cel.io/declarations to set, if any
		all        bool
		wantErr    []string
		warnings   []string
		decls      string // the declarations annotation of the output
		ruled      []bool // per version: spec.a has the rules of Immutable
	}{{
		name:     "no conversion",
		versions: []servedVersion{v1, {"v1beta1", true, plainA}},
		wantErr: []string{atA1 + ": Required value: version v1beta1 serves .spec.a without the x-kubernetes-mutability: Immutable that version v1 declares there; " +
			"the versions store the same objects (no conversion webhook), so updates sent through v1beta1 escape it: declare it in v1beta1 too"},
	}, {
		name:       "strategy None",
		conversion: "{strategy: None}",
		versions:   []servedVersion{{"v1beta1", true, plainA}, v1},
		wantErr: []string{"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a]: Required value: version v1beta1 serves .spec.a without the x-kubernetes-mutability: Immutable that version v1 declares there; " +
			"the versions store the same objects (no conversion webhook), so updates sent through v1beta1 escape it: declare it in v1beta1 too"},
	}, {
		name:     "declared in two versions, missing in a third",
		versions: []servedVersion{v1, {"v1beta2", true, immutableA}, {"v1beta1", true, plainA}},
		wantErr: []string{atA2 + ": Required value: version v1beta1 serves .spec.a without the x-kubernetes-mutability: Immutable that versions v1, v1beta2 declare there; " +
			"the versions store the same objects (no conversion webhook), so updates sent through v1beta1 escape it: declare it in v1beta1 too"},
	}, {
		name:       "declared in the annotation",
		versions:   []servedVersion{{"v1", true, plainA}, {"v1beta1", true, plainA}},
		annotation: "v1: {.spec.a: {x-kubernetes-mutability: Immutable}}",
		wantErr: []string{atA1 + ": Required value: version v1beta1 serves .spec.a without the x-kubernetes-mutability: Immutable that version v1 declares there; " +
			"the versions store the same objects (no conversion webhook), so updates sent through v1beta1 escape it: declare it in v1beta1 too"},
	}, {
		name:     "all versions",
		versions: []servedVersion{v1, {"v1beta1", true, plainA}, {"v1alpha1", true, plainA}},
		all:      true,
		decls: "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n" +
			"v1beta1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n" +
			"v1alpha1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled: []bool{true, true, true},
	}, {
		name:       "all versions, from the annotation",
		versions:   []servedVersion{{"v1", true, plainA}, {"v1beta1", true, plainA}},
		annotation: "v1: {.spec.a: {x-kubernetes-mutability: Immutable}}",
		all:        true,
		decls:      "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\nv1beta1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:      []bool{true, true},
	}, {
		name:     "all versions, path absent in another version",
		versions: []servedVersion{v1, {"v1beta1", true, noA}},
		all:      true,
		decls:    "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:    []bool{true, false},
	}, {
		name:     "path absent in another version",
		versions: []servedVersion{v1, {"v1beta1", true, noA}},
		decls:    "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:    []bool{true, false},
	}, {
		name:     "unserved version",
		versions: []servedVersion{v1, {"v1beta1", false, plainA}},
		decls:    "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:    []bool{true, false},
	}, {
		name:     "all versions, unserved version",
		versions: []servedVersion{v1, {"v1beta1", false, plainA}},
		all:      true,
		decls:    "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:    []bool{true, false},
	}, {
		name:       "webhook",
		conversion: webhookConversion,
		versions:   []servedVersion{v1, {"v1beta1", true, plainA}},
		warnings: []string{atA1 + ": version v1beta1 serves .spec.a without the x-kubernetes-mutability: Immutable that version v1 declares there; " +
			"if the conversion webhook keeps this field as it is, updates sent through v1beta1 escape it: declare it in v1beta1 too"},
		decls: "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled: []bool{true, false},
	}, {
		name:       "webhook, all versions",
		conversion: webhookConversion,
		versions:   []servedVersion{v1, {"v1beta1", true, plainA}},
		all:        true,
		decls:      "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\nv1beta1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n",
		ruled:      []bool{true, true},
	}, {
		name:     "conflict",
		versions: []servedVersion{v1, {"v1beta1", true, addOnlyA}},
		wantErr: []string{atA1 + `: Invalid value: "AddOnly": version v1 declares x-kubernetes-mutability: Immutable on .spec.a, version v1beta1 declares AddOnly; ` +
			"the versions store the same objects (no conversion webhook): make them the same"},
	}, {
		name:     "conflict, all versions",
		versions: []servedVersion{v1, {"v1beta1", true, addOnlyA}, {"v1alpha1", true, plainA}},
		all:      true,
		wantErr: []string{atA1 + `: Invalid value: "AddOnly": version v1 declares x-kubernetes-mutability: Immutable on .spec.a, version v1beta1 declares AddOnly; ` +
			"declarations apply to every served version: make them the same"},
	}, {
		name:       "conflict, webhook",
		conversion: webhookConversion,
		versions:   []servedVersion{v1, {"v1beta1", true, addOnlyA}},
		decls:      "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\nv1beta1:\n  .spec.a:\n    x-kubernetes-mutability: AddOnly\n",
	}, {
		name: "copy not allowed where it goes",
		versions: []servedVersion{
			{"v1", true, specSchema(`{type: array, maxItems: 4, items: {type: string, maxLength: 8}, x-kubernetes-key-mutability: AddOnly}`)},
			{"v1beta1", true, plainA},
		},
		all: true,
		wantErr: []string{atA1 + ": x-kubernetes-key-mutability copied from version v1: " +
			"Forbidden: only allowed on type: array or on type: object with an additionalProperties schema; the properties of an object are not a key set: put x-kubernetes-mutability on each property instead"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := servedCRD(t, c.conversion, c.versions...)
			if c.annotation != "" {
				setAnnotation(doc, "mut2cel.io/declarations", c.annotation)
			}
			opts := translate.Options{AllServedVersions: c.all}
			if c.wantErr != nil {
				_, err := translate.Translate(doc, opts)
				if err == nil || err.Error() != strings.Join(c.wantErr, "\n") {
					t.Errorf("Translate() error = %v\nwant %s", err, strings.Join(c.wantErr, "\n"))
				}
				return
			}
			res := rewriteWith(t, doc, opts)
			if got := problemTexts(res.Warnings); !reflect.DeepEqual(got, c.warnings) {
				t.Errorf("Translate() warnings = %q\nwant %q", got, c.warnings)
			}
			if got := annotation(res.Translated, "mut2cel.io/declarations"); got != c.decls {
				t.Errorf("declarations annotation = %q, want %q", got, c.decls)
			}
			want := rulesAtVersion(res.Translated, 0)
			for i, ruled := range c.ruled {
				if got := rulesAtVersion(res.Translated, i); ruled != reflect.DeepEqual(got, want) || ruled != (got != nil) {
					t.Errorf("rules on version %d = %q, want them (%v) like version 0: %q", i, got, ruled, want)
				}
			}
			// The annotation keeps what was copied: a second run, with the
			// option or without, changes nothing.
			for _, again := range []bool{c.all, false} {
				res2 := rewriteWith(t, roundTrip(t, res.Translated), translate.Options{AllServedVersions: again})
				if len(res2.Edits) != 0 {
					t.Errorf("translating once more (AllServedVersions %v): edits %+v", again, res2.Edits)
				}
			}
		})
	}
}

func problemTexts(problems []translate.Problem) []string {
	var out []string
	for _, p := range problems {
		out = append(out, p.String())
	}
	return out
}
