package verify

import (
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// intFloatSchema declares an immutable integer, an integer nobody
// declares, and immutable items keyed by an integer.
const intFloatSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      count: {type: integer, x-kubernetes-mutability: Immutable}
      free: {type: integer}
      m: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}
      items:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [id]
        items:
          type: object
          required: [id]
          properties:
            id: {type: integer}
            v: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}`

// TestIntegerSentAsFloat pins how the verifier treats an integer a client
// sends as 1.0 (docs/semantics.md 2.4): a rule that fails on it denies the
// update; where the verdicts then differ from the reference checker's, the
// pair is counted apart; where no rule reads it, it is compared as usual.
func TestIntegerSentAsFloat(t *testing.T) {
	r := translatedRun(t, intFloatSchema)
	for _, c := range []struct {
		name, old, new string
		want           outcome
	}{
		{"rule reads the float", `{"spec": {"count": 1}}`, `{"spec": {"count": 1.0}}`, intAsFloat},
		// The rule fails, which denies the update as the declaration does.
		{"rule reads the float of a changed value", `{"spec": {"count": 1}}`, `{"spec": {"count": 2.0}}`, agreed},
		{"no rule reads the float", `{"spec": {"free": 1, "m": "a"}}`, `{"spec": {"free": 1.0, "m": "a"}}`, agreed},
		{"no rule reads the float, another field changes", `{"spec": {"free": 1, "m": "a"}}`, `{"spec": {"free": 1.0, "m": "b"}}`, agreed},
		// The apiserver pairs list-map items by the Go value of their keys:
		// an item keyed 1.0 is a new item, whose value rule does not run.
		{"float key hides the old item", `{"spec": {"items": [{"id": 1, "v": "a"}]}}`, `{"spec": {"items": [{"id": 1.0, "v": "b"}]}}`, intAsFloat},
		{"integers", `{"spec": {"count": 1, "items": [{"id": 1, "v": "a"}]}}`, `{"spec": {"count": 1, "items": [{"id": 1, "v": "b"}]}}`, agreed},
	} {
		v, err := r.compare(decodeJSON(t, c.old), decodeJSON(t, c.new))
		if err != nil {
			t.Fatal(err)
		}
		if v.outcome != c.want {
			t.Errorf("%s: compare(%s, %s) = outcome %d (denied %v %q, reference %v), want %d", c.name, c.old, c.new, v.outcome, v.denied, v.detail, v.violations, c.want)
		}
	}
}

// translatedRun translates a one-version schema and prepares its run.
func translatedRun(t *testing.T, schemaYAML string) *versionRun {
	t.Helper()
	doc := crdDoc(testcrd.Decode(t, schemaYAML))
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := crdVersions(res.Translated)[0]
	r, err := newVersionRun(res.Translated, crdVersions(doc)[0], v, Options{NewJudge: newCELJudge})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func crdDoc(schema map[string]interface{}) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": "widgets.example.com"},
		"spec": map[string]interface{}{
			"group": "example.com",
			"names": map[string]interface{}{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"scope": "Namespaced",
			"versions": []interface{}{map[string]interface{}{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": schema},
			}},
		},
	}
}

// decodeJSON reads an object as the apiserver decodes a request: integers
// as int64, numbers with a fraction or exponent, 1.0 included, as float64.
func decodeJSON(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := utiljson.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("decoding %s: %v", text, err)
	}
	return m
}

// stringRulesSchema is intFloatSchema as a hand-written CRD might check
// it: the strings are immutable while set, no rule checks presence, and
// no rule reads an integer.
const stringRulesSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      count: {type: integer}
      free: {type: integer}
      m: {type: string, maxLength: 8, x-kubernetes-validations: [{rule: self == oldSelf}]}
      items:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [id]
        items:
          type: object
          required: [id]
          properties:
            id: {type: integer}
            v: {type: string, maxLength: 8, x-kubernetes-validations: [{rule: self == oldSelf}]}`

// TestIntegerSentAsFloatIsProved checks that a pair is set apart only when
// sending its integers as integers makes the verdicts agree: a pair that
// also disagrees for another reason is a disagreement.
func TestIntegerSentAsFloatIsProved(t *testing.T) {
	r := runAgainst(t, intFloatSchema, stringRulesSchema)
	for _, c := range []struct {
		name, old, new string
		want           outcome
	}{
		{"removal the rules miss, a float beside it", `{"spec": {"m": "a", "free": 1}}`, `{"spec": {"free": 1.0}}`, disagreed},
		{"removal the rules miss, a float key beside it", `{"spec": {"m": "a", "items": [{"id": 1, "v": "a"}]}}`, `{"spec": {"items": [{"id": 1.0, "v": "a"}]}}`, disagreed},
		{"removal the rules miss, no float", `{"spec": {"m": "a", "free": 1}}`, `{"spec": {"free": 1}}`, disagreed},
		// Only the float hides the old item from the rule on v.
		{"float key, nothing else", `{"spec": {"items": [{"id": 1, "v": "a"}]}}`, `{"spec": {"items": [{"id": 1.0, "v": "b"}]}}`, intAsFloat},
	} {
		v, err := r.compare(decodeJSON(t, c.old), decodeJSON(t, c.new))
		if err != nil {
			t.Fatal(err)
		}
		if v.outcome != c.want {
			t.Errorf("%s: compare(%s, %s) = outcome %d (denied %v %q, reference %v), want %d", c.name, c.old, c.new, v.outcome, v.denied, v.detail, v.violations, c.want)
		}
	}
}

// TestIntegersThatDecideNothingAreNotSetApart verifies rules that
// neither read an integer nor sit below a list keyed by one against
// declarations they fall short of: no float can change their verdict, so
// every pair on which the verdicts differ is a disagreement, those with
// an integer sent as a float included.
func TestIntegersThatDecideNothingAreNotSetApart(t *testing.T) {
	const declared = `
type: object
properties:
  spec:
    type: object
    properties:
      count: {type: integer}
      m: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}`
	const tested = `
type: object
properties:
  spec:
    type: object
    properties:
      count: {type: integer}
      m: {type: string, maxLength: 8, x-kubernetes-validations: [{rule: self == oldSelf}]}`
	rep, err := Verify(crdDoc(testcrd.Decode(t, declared)), crdDoc(testcrd.Decode(t, tested)), Options{Pairs: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Disagreements == 0 || v.IntAsFloat != 0 {
		t.Errorf("Verify over %d pairs: %d disagreements, %d set apart as integers sent as floats; want some disagreements and none set apart", v.Pairs, v.Disagreements, v.IntAsFloat)
	}
}

// runAgainst prepares the run of a one-version CRD with the tested schema
// against the declarations of the declared one.
func runAgainst(t *testing.T, declared, tested string) *versionRun {
	t.Helper()
	doc := crdDoc(testcrd.Decode(t, tested))
	r, err := newVersionRun(doc, crdVersions(crdDoc(testcrd.Decode(t, declared)))[0], crdVersions(doc)[0], Options{NewJudge: newCELJudge})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
