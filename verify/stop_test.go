package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify"
)

// TestStopAtDisagreement checks that a run told to stop at its first
// disagreement judges the first pairs of the full run, the same ones,
// up to the end of the batch that holds that disagreement, and that
// Versions leaves every other version out.
func TestStopAtDisagreement(t *testing.T) {
	dir := "../testdata/broken/list-map-whole-items"
	declared := testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml"))
	translated := testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml"))
	full, err := verify.Verify(declared, translated, verify.Options{Pairs: 2000, Seed: 1, Counterexamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	v := full.Versions[0]
	if v.Disagreements == 0 || v.First > 256 {
		t.Fatalf("the fixture's first disagreement is at pair %d of %d; the test needs one in the first batch", v.First, v.Pairs)
	}
	stopped, err := verify.Verify(declared, translated, verify.Options{Pairs: 2000, Seed: 1, Counterexamples: -1,
		StopAtDisagreement: true, Versions: []string{v.Version}})
	if err != nil {
		t.Fatal(err)
	}
	if len(stopped.Versions) != 1 {
		t.Fatalf("%d versions reported, want 1", len(stopped.Versions))
	}
	s := stopped.Versions[0]
	if s.Pairs != 256 || s.First != v.First || s.Disagreements == 0 || s.Disagreements > v.Disagreements {
		t.Errorf("stopped run: %d pairs, first disagreement at %d, %d disagreements; want 256 pairs, the first at %d as in the full run",
			s.Pairs, s.First, s.Disagreements, v.First)
	}
	if _, err := verify.Verify(declared, translated, verify.Options{Pairs: 10, Seed: 1, Versions: []string{"no-such-version"}}); err == nil {
		t.Error("Versions [no-such-version] checked nothing and passed")
	}
}
