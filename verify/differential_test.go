package verify_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// readDoc reads a one-document YAML file.
func readDoc(t testing.TB, path string) map[string]interface{} {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}

// TestDifferentialExamples translates every shipped example and checks
// that the rules, run by the apiserver's CEL validator, deny exactly what
// the reference checker denies.
func TestDifferentialExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	const seed, pairs = 1, 3000
	t.Logf("seed %d, %d pairs", seed, pairs)
	for _, file := range files {
		doc := readDoc(t, file)
		for _, v := range []translate.KubeVersion{{Major: 1, Minor: 31}, {Major: 1, Minor: 33}} {
			t.Run(fmt.Sprintf("%s/%s", filepath.Base(file), v), func(t *testing.T) {
				res, err := translate.Translate(doc, translate.Options{KubeVersion: v})
				if err != nil {
					t.Fatal(err)
				}
				rep, err := verify.Verify(doc, res.Translated, verify.Options{Pairs: pairs, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				for _, vr := range rep.Versions {
					t.Logf("%s: %d pairs, %d int-as-float, %d invalid", vr.Version, vr.Pairs, vr.IntAsFloat, vr.Invalid)
					for _, ce := range vr.Counterexamples {
						t.Errorf("disagreement:\n%s", ce.YAML())
					}
				}
			})
		}
	}
}
