package verify_test

import (
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// counterCRD has spec.name with nameDecl, and spec.count, an integer,
// with countRule: a rule of the CRD's own, unrelated to the declaration,
// that denies every decrease, or a bound.
func counterCRD(t *testing.T, nameDecl, countRule string) map[string]interface{} {
	return verify.CounterCRD(t, nameDecl, "type: integer, "+countRule, "")
}

const (
	immutable    = "x-kubernetes-mutability: Immutable"
	neverDecline = "x-kubernetes-validations: [{rule: 'self >= oldSelf'}]"
	noRule       = "minimum: 0"
)

func verifyCounter(t *testing.T, declared, tested map[string]interface{}) *verify.VersionReport {
	t.Helper()
	rep, err := verify.Verify(declared, tested, verify.Options{Pairs: 2000, Seed: 1, Counterexamples: 3})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Versions[0]
}

func causeKeys(v *verify.VersionReport) string {
	var keys []string
	for _, c := range v.Causes {
		keys = append(keys, c.Cause.Key())
	}
	return strings.Join(keys, "\n")
}

// TestUnrelatedRuleVerifiesClean translates a CRD whose own rule is no
// mutability at all: the translation keeps it, it denies pairs the
// checker allows, and the reference denies them too.
func TestUnrelatedRuleVerifiesClean(t *testing.T) {
	declared := counterCRD(t, immutable, neverDecline)
	res, err := translate.Translate(declared, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := verifyCounter(t, declared, res.Translated); v.Disagreements != 0 {
		t.Errorf("Verify(translation) = %d disagreements in %d pairs, want none; causes:\n%s", v.Disagreements, v.Pairs, causeKeys(v))
	}
	// Without the companion, the same rule is a disagreement: the test
	// exercises it.
	plain := counterCRD(t, immutable, noRule)
	if v := verifyCounter(t, plain, res.Translated); v.Disagreements == 0 {
		t.Errorf("Verify(translation) against declarations without the rule: no disagreement in %d pairs, want the rule reported", v.Pairs)
	}
}

// TestCompanionDoesNotHideMissingRule verifies a CRD that holds the
// companion but not the rule of the declaration: the companion denies
// decreases of count, which cannot make up for name changes let through.
func TestCompanionDoesNotHideMissingRule(t *testing.T) {
	declared := counterCRD(t, immutable, neverDecline)
	tested := counterCRD(t, "", neverDecline)
	v := verifyCounter(t, declared, tested)
	want := "missed: value of x-kubernetes-mutability: Immutable at .spec.name"
	if v.Disagreements == 0 || !strings.Contains(causeKeys(v), want) {
		t.Errorf("Verify(no generated rule) causes:\n%s\nwant %q", causeKeys(v), want)
	}
}

// TestCompanionDroppedIsMissed verifies a CRD that lost the declared CRD's
// own rule: the reference denies what that rule denies.
func TestCompanionDroppedIsMissed(t *testing.T) {
	declared := counterCRD(t, immutable, neverDecline)
	res, err := translate.Translate(counterCRD(t, immutable, noRule), translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := verifyCounter(t, declared, res.Translated)
	want := "missed: rule at .spec.count: self >= oldSelf"
	if got := causeKeys(v); got != want {
		t.Errorf("Verify(companion dropped) causes:\n%s\nwant %q", got, want)
	}
	if len(v.Counterexamples) == 0 || len(v.Counterexamples[0].Companions) == 0 {
		t.Errorf("counterexample of a dropped companion names no companion")
	}
}

// TestBrokenTranslationsWithCompanion adds the same rule of the user's own
// to the declared and the broken CRD of each fixture under testdata/broken:
// every broken translation is still caught.
func TestBrokenTranslationsWithCompanion(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/broken/*")
	if err != nil || len(dirs) < 4 {
		t.Fatalf("broken fixtures: %v, found %d", err, len(dirs))
	}
	pairs := 10000
	if testing.Short() {
		pairs = 1000 // as in TestBrokenTranslations
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			declared := withRootRule(testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml")))
			translated := withRootRule(testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml")))
			rep, err := verify.Verify(declared, translated, verify.Options{Pairs: pairs, Seed: 1, Counterexamples: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range rep.Versions {
				if v.Disagreements == 0 {
					t.Errorf("version %s: no counterexample in %d pairs (seed 1)", v.Version, v.Pairs)
				}
			}
		})
	}
}

// withRootRule adds to the root of every version a rule that denies
// removing spec, a rule of the user's own, unrelated to any declaration.
func withRootRule(doc map[string]interface{}) map[string]interface{} {
	spec := doc["spec"].(map[string]interface{})
	for _, v := range spec["versions"].([]interface{}) {
		root := v.(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
		rules, _ := root["x-kubernetes-validations"].([]interface{})
		root["x-kubernetes-validations"] = append(rules, map[string]interface{}{"rule": "has(self.spec) || !has(oldSelf.spec)"})
	}
	return doc
}

// TestCompanionFailingOrFalse: a companion `self == oldSelf` on an object
// holding a date-time CEL cannot parse (lower-case t and z pass the
// schema) fails or returns false depending on which field CEL compares
// first, which Go randomizes. The apiserver denies the update either way,
// so neither is a disagreement, on any run.
func TestCompanionFailingOrFalse(t *testing.T) {
	var declared map[string]interface{}
	if err := yaml.Unmarshal([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: self == oldSelf, message: spec is immutable}]
            properties:
              name: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}
              at: {type: string, format: date-time}
`), &declared); err != nil {
		t.Fatal(err)
	}
	res, err := translate.Translate(declared, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 3; run++ {
		rep, err := verify.Verify(declared, res.Translated, verify.Options{Pairs: 1500, Seed: 1, Counterexamples: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v := rep.Versions[0]; v.Disagreements != 0 {
			t.Fatalf("run %d: %d disagreements in %d pairs, want none; causes:\n%s", run, v.Disagreements, v.Pairs, causeKeys(v))
		}
	}
}
