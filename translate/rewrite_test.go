package translate_test

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// rewriteCRD has a hand-written rule on the root and two declarations.
const rewriteCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "!has(self.spec) || has(self.spec.size)"
          message: size is required
        properties:
          spec:
            type: object
            properties:
              class:
                type: string
                maxLength: 64
                x-kubernetes-mutability: Immutable
              size:
                type: integer
              tags:
                type: array
                maxItems: 8
                items: {type: string, maxLength: 16}
                x-kubernetes-key-mutability: AddOnly
`

func docOf(t *testing.T, y string) map[string]interface{} {
	t.Helper()
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// rewrite translates doc as translate -w does and checks the result's own
// invariants: the edits give Translated, which passes CRD validation.
func rewrite(t *testing.T, doc map[string]interface{}) *translate.Result {
	t.Helper()
	return rewriteWith(t, doc, translate.Options{})
}

func rewriteWith(t *testing.T, doc map[string]interface{}, opts translate.Options) *translate.Result {
	t.Helper()
	res, err := translate.Translate(doc, opts)
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	applied, err := edit.Apply(roundTrip(t, doc), res.Edits)
	if err != nil {
		t.Fatalf("edit.Apply(doc, Edits): %v", err)
	}
	if !reflect.DeepEqual(roundTrip(t, applied), roundTrip(t, res.Translated)) {
		t.Errorf("edit.Apply(doc, Edits) differs from Translated")
	}
	if errs, err := kube.ValidateCRD(typedCRD(t, res.Translated)); err != nil || len(errs) > 0 {
		t.Errorf("translated CRD fails validation: %v %v", err, errs)
	}
	return res
}

func roundTrip(t *testing.T, v map[string]interface{}) map[string]interface{} {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return docOf(t, string(data))
}

// schemaAt returns a schema node of version 0 of a decoded CRD.
func schemaAt(doc map[string]interface{}, props ...string) map[string]interface{} {
	m := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})
	m = m["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, p := range props {
		m = m["properties"].(map[string]interface{})[p].(map[string]interface{})
	}
	return m
}

func rulesAt(doc map[string]interface{}, props ...string) []string {
	var out []string
	list, _ := schemaAt(doc, props...)["x-kubernetes-validations"].([]interface{})
	for _, e := range list {
		out = append(out, e.(map[string]interface{})["rule"].(string))
	}
	return out
}

func annotation(doc map[string]interface{}, name string) string {
	a, _ := doc["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})
	s, _ := a[name].(string)
	return s
}

func setAnnotation(doc map[string]interface{}, name, value string) {
	meta := doc["metadata"].(map[string]interface{})
	a, _ := meta["annotations"].(map[string]interface{})
	if a == nil {
		a = map[string]interface{}{}
		meta["annotations"] = a
	}
	a[name] = value
}

func TestRewriteFirstTranslation(t *testing.T) {
	res := rewrite(t, docOf(t, rewriteCRD))
	out := res.Translated
	wantDecls := "v1:\n  .spec.class:\n    x-kubernetes-mutability: Immutable\n  .spec.tags:\n    x-kubernetes-key-mutability: AddOnly\n"
	if got := annotation(out, "mut2cel.io/declarations"); got != wantDecls {
		t.Errorf("declarations annotation = %q, want %q", got, wantDecls)
	}
	gen := annotation(out, "mut2cel.io/generated")
	if !strings.HasPrefix(gen, "v1:\n  .: [\"") || !strings.Contains(gen, "\n  .spec.class: [\"") {
		t.Errorf("generated annotation = %q, want fingerprints under . and .spec.class", gen)
	}
	if got := rulesAt(out); len(got) != 3 || got[0] != "!has(self.spec) || has(self.spec.size)" {
		t.Errorf("root rules = %q, want the hand-written rule first and two generated ones", got)
	}
	if _, ok := schemaAt(out, "spec", "class")["x-kubernetes-mutability"]; ok {
		t.Errorf("the declaration is still in the schema")
	}
	if !reflect.DeepEqual(roundTrip(t, res.Base), roundTrip(t, withoutDeclarations(t, rewriteCRD))) {
		t.Errorf("Base is not the CRD without its declarations")
	}
}

func withoutDeclarations(t *testing.T, y string) map[string]interface{} {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(y, "\n") {
		if !strings.Contains(l, "-mutability:") {
			lines = append(lines, l)
		}
	}
	return docOf(t, strings.Join(lines, "\n"))
}

func TestRewriteIsStable(t *testing.T) {
	first := rewrite(t, docOf(t, rewriteCRD))
	second := rewrite(t, first.Translated)
	if len(second.Edits) != 0 || len(second.Warnings) != 0 {
		t.Errorf("second translation: edits %+v, warnings %v; want none", second.Edits, second.Warnings)
	}
	if !reflect.DeepEqual(roundTrip(t, second.Base), roundTrip(t, first.Base)) {
		t.Errorf("Base of the translation differs from Base of the source")
	}
}

func TestRewriteWithoutDeclarations(t *testing.T) {
	doc := withoutDeclarations(t, rewriteCRD)
	res := rewrite(t, doc)
	if len(res.Edits) != 0 || !reflect.DeepEqual(res.Translated, doc) {
		t.Errorf("a CRD without declarations gets edits %+v", res.Edits)
	}
}
