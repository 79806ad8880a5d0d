package verify_test

import (
	"fmt"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
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
// not disagreements, and the run does not stop. It fails all the same: a
// run that judged no pair checked nothing.
func TestInvalidPairsAreNeitherDenialsNorFailures(t *testing.T) {
	dir := "../testdata/broken/set-order-ignored/"
	declared, translated := testcrd.ReadFile(t, dir+"declared.yaml"), testcrd.ReadFile(t, dir+"translated.yaml")
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
	for _, v := range rep.Versions {
		if !v.TooManySetAside() || len(v.Untested()) == 0 || v.Judged() != 0 {
			t.Errorf("version %s: TooManySetAside() = %v, %d untested constraints, %d judged; want true, some, 0",
				v.Version, v.TooManySetAside(), len(v.Untested()), v.Judged())
		}
		if len(v.SetAside) != 1 || v.SetAside[0].Pairs != pairs || v.SetAside[0].Example.Pair != 1 {
			t.Errorf("version %s: set aside %+v, want one reason for all %d pairs, the first its example", v.Version, v.SetAside, pairs)
		}
	}
	if !rep.Failed() {
		t.Error("Failed() = false, want true: no pair was judged")
	}
}
