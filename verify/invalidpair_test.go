package verify_test

import (
	"fmt"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// refusingJudge refuses every pair as a server would refuse objects that
// fail its schema.
type refusingJudge struct{}

func (refusingJudge) Update(old, new map[string]interface{}) (bool, []string, error) {
	return false, nil, fmt.Errorf("spec.n: Invalid value: %w", verify.ErrInvalidPair)
}

// TestInvalidPairsAreNeitherDenialsNorFailures checks that pairs a judge
// refuses with ErrInvalidPair are counted apart: even on a broken
// translation, where the in-process judge finds disagreements, they are
// not disagreements, and the run does not stop.
func TestInvalidPairsAreNeitherDenialsNorFailures(t *testing.T) {
	dir := "../testdata/broken/set-order-ignored/"
	declared, translated := readDoc(t, dir+"declared.yaml"), readDoc(t, dir+"translated.yaml")
	const pairs = 300
	rep, err := verify.Verify(declared, translated, verify.Options{
		Pairs: pairs, Seed: 1,
		NewJudge: func(verify.Target) (verify.Judge, error) { return refusingJudge{}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Versions {
		if v.Pairs != pairs || v.Invalid != pairs || v.Disagreements != 0 || len(v.Counterexamples) != 0 {
			t.Errorf("version %s: %d pairs, %d invalid, %d disagreements, %d counterexamples; want %d, %d, 0, 0",
				v.Version, v.Pairs, v.Invalid, v.Disagreements, len(v.Counterexamples), pairs, pairs)
		}
	}
	if rep.Failed() {
		t.Error("Failed() = true, want false")
	}
}
