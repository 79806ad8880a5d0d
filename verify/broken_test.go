package verify_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
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
	// Under -short, 1,000 pairs: each fixture's first counterexample
	// comes within the first dozen.
	pairs := 10000
	if testing.Short() {
		pairs = 1000
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			declared := testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml"))
			translated := testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml"))
			rep, err := verify.Verify(declared, translated, verify.Options{Pairs: pairs, Seed: seed, Counterexamples: 1})
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

// TestWorkersDoNotChangeTheReport judges the same pairs with one and with
// two workers.
func TestWorkersDoNotChangeTheReport(t *testing.T) {
	dir := "../testdata/broken/list-map-whole-items"
	declared := testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml"))
	translated := testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml"))
	var reports []string
	for _, workers := range []int{1, 2} {
		rep, err := verify.Verify(declared, translated, verify.Options{Pairs: 1000, Seed: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, renderReport(rep))
	}
	if reports[0] != reports[1] {
		t.Errorf("one worker:\n%s\ntwo workers:\n%s", reports[0], reports[1])
	}
}

func renderReport(rep *verify.Report) string {
	var b strings.Builder
	for _, v := range rep.Versions {
		fmt.Fprintf(&b, "%s: %d pairs, %d disagreements from %d, %d int-as-float, %d invalid\n",
			v.Version, v.Pairs, v.Disagreements, v.First, v.IntAsFloat, v.Invalid)
		for _, ce := range v.Counterexamples {
			b.Write(ce.YAML())
		}
	}
	return b.String()
}

// denyAll is a Judge that denies every update, or fails to decide.
type denyAll struct{ err error }

func (j denyAll) Update(old, new map[string]interface{}) (bool, []string, error) {
	return true, []string{"denied"}, j.err
}

// TestJudge checks that Options.NewJudge replaces the in-process
// validator, and that a judge's failure ends the run.
func TestJudge(t *testing.T) {
	doc := testcrd.ReadFile(t, "../examples/ports.yaml")
	var targets []string
	newJudge := func(err error) func(verify.Target) (verify.Judge, error) {
		return func(tg verify.Target) (verify.Judge, error) {
			targets = append(targets, verify.CRDName(tg.CRD)+" "+tg.Version)
			return denyAll{err}, nil
		}
	}
	rep, err := verify.Verify(doc, testcrd.ReadFile(t, "../examples/translated/ports.yaml"), verify.Options{Pairs: 100, Seed: 1, NewJudge: newJudge(nil)})
	if err != nil {
		t.Fatal(err)
	}
	// The reference allows most updates; the judge allows none.
	if v := rep.Versions[0]; v.Disagreements < 50 {
		t.Errorf("denying judge: %d disagreements in %d pairs, want most", v.Disagreements, v.Pairs)
	}
	if got, want := strings.Join(targets, ","), "gateways.networking.example.com v1"; got != want {
		t.Errorf("judges built for %q, want %q", got, want)
	}
	_, err = verify.Verify(doc, testcrd.ReadFile(t, "../examples/translated/ports.yaml"), verify.Options{Pairs: 100, Seed: 1, NewJudge: newJudge(fmt.Errorf("connection refused"))})
	var jerr *verify.JudgeError
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !errors.As(err, &jerr) || jerr.Version != "v1" {
		t.Errorf("failing judge: Verify error = %v, want a JudgeError of v1, connection refused", err)
	}
	refused := func(verify.Target) (verify.Judge, error) { return nil, fmt.Errorf("the server refuses the CRD") }
	_, err = verify.Verify(doc, testcrd.ReadFile(t, "../examples/translated/ports.yaml"), verify.Options{Pairs: 100, Seed: 1, NewJudge: refused})
	if want := `the judge of version "v1" failed: the server refuses the CRD`; err == nil || err.Error() != want || !errors.As(err, &jerr) {
		t.Errorf("judge not built: Verify error = %v, want a JudgeError %q", err, want)
	}
}
