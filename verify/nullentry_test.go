package verify_test

import (
	"os"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// TestNullableEntries is class 2 of issue 27: a map value and a list item
// that may be null, whose schema requires a declared field. Nulling the
// entry removes the field, filling a null one adds it, and both are
// presence changes (semantics.md 2.1, 3.2): the translation must deny
// them, and verify must count them as constraints of their own.
func TestNullableEntries(t *testing.T) {
	data, err := os.ReadFile("../testdata/schemas/nullable-entries.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, minor := range corpus.Sample([]int{29, 33, 37}, 1) { // the three in the full run
		res, err := translate.Translate(doc, translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: minor}})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := verify.Verify(doc, res.Translated, verify.Options{Pairs: 3000, Seed: 1, Counterexamples: 1})
		if err != nil {
			t.Fatal(err)
		}
		v := rep.Versions[0]
		if rep.Failed() {
			t.Errorf("1.%d: %d disagreements %v, untested %v", minor, v.Disagreements, groupKeys(v), v.Untested())
		}
		presence := 0
		for _, c := range v.Constraints {
			if c.Name == "NoSet" || c.Name == "NoUnset" {
				presence++
			}
		}
		if presence != 4 {
			t.Errorf("1.%d: %d presence constraints, want NoSet and NoUnset of each field", minor, presence)
		}
	}
}

func groupKeys(v *verify.VersionReport) []string {
	var out []string
	for _, g := range v.Groups {
		out = append(out, g.Key())
	}
	return out
}
