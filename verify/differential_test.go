package verify_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// TestNoDisagreement checks every CRD shipped with declarations: the
// examples translated for two targets, the committed translations
// (examples/translated, testdata/golden) against their examples, and mut2cel's translation of the
// declarations of the broken fixtures. The rules, run by the apiserver's
// CEL validator, must deny exactly what the reference checker denies.
//
// Under -short, half the examples are checked, with 300 pairs instead
// of 2,000.
func TestNoDisagreement(t *testing.T) {
	const seed = 1
	pairs := 2000
	if testing.Short() {
		pairs = 300
	}
	t.Logf("seed %d, %d pairs per version", seed, pairs)
	examples, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range corpus.Sample(examples, len(examples)/2) {
		for _, v := range []translate.KubeVersion{{Major: 1, Minor: 31}, {Major: 1, Minor: 33}} {
			name := fmt.Sprintf("%s/%s", filepath.Base(file), v)
			t.Run(name, func(t *testing.T) { verifyTranslation(t, file, v, pairs, seed) })
			// The default target's translations are committed next to the
			// examples, the others under testdata/golden.
			golden := filepath.Join("../testdata/golden", v.String(), filepath.Base(file))
			if v == translate.DefaultKubeVersion {
				golden = filepath.Join("../examples/translated", filepath.Base(file))
			}
			t.Run(name+"/golden", func(t *testing.T) { verifyAgainst(t, file, golden, pairs, seed) })
		}
	}
	broken, err := filepath.Glob("../testdata/broken/*/declared.yaml")
	if err != nil || len(broken) == 0 {
		t.Fatalf("no broken fixtures: %v", err)
	}
	for _, file := range broken {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			verifyTranslation(t, file, translate.DefaultKubeVersion, pairs, seed)
		})
	}
}

func verifyTranslation(t *testing.T, file string, v translate.KubeVersion, pairs int, seed int64) {
	doc := testcrd.ReadFile(t, file)
	res, err := translate.Translate(doc, translate.Options{KubeVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	checkClean(t, doc, res.Translated, pairs, seed)
}

func verifyAgainst(t *testing.T, declared, translated string, pairs int, seed int64) {
	checkClean(t, testcrd.ReadFile(t, declared), testcrd.ReadFile(t, translated), pairs, seed)
}

func checkClean(t *testing.T, declared, translated map[string]interface{}, pairs int, seed int64) {
	t.Helper()
	rep, err := verify.Verify(declared, translated, verify.Options{Pairs: pairs, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Versions {
		if v.Pairs != pairs {
			t.Errorf("version %s: %d pairs checked, want %d", v.Version, v.Pairs, pairs)
		}
		for _, ce := range v.Counterexamples {
			t.Errorf("version %s: disagreement (seed %d):\n%s", v.Version, seed, ce.YAML())
		}
	}
}
