package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// TestBrokenTranslations checks that the verifier finds a counterexample
// for each deliberately wrong translation under testdata/broken within
// 10,000 pairs.
func TestBrokenTranslations(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/broken/*")
	if err != nil || len(dirs) < 4 {
		t.Fatalf("broken fixtures: %v, found %d", err, len(dirs))
	}
	const seed = 1
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			declared := readDoc(t, filepath.Join(dir, "declared.yaml"))
			translated := readDoc(t, filepath.Join(dir, "translated.yaml"))
			rep, err := verify.Verify(declared, translated, verify.Options{Pairs: 10000, Seed: seed, Counterexamples: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range rep.Versions {
				if v.Disagreements == 0 {
					t.Fatalf("version %s: no counterexample in %d pairs (seed %d)", v.Version, v.Pairs, seed)
				}
				t.Logf("version %s: first counterexample at pair %d (seed %d), %d disagreements in %d pairs:\n%s",
					v.Version, v.First, seed, v.Disagreements, v.Pairs, v.Counterexamples[0].YAML())
			}
		})
	}
}
