package verify_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// validityTally is a count of the objects validated both ways, by
// verify's incremental validity and by the apiserver's whole validation
// (verify.CheckValidity, switched on in TestMain), and of those each
// refused.
type validityTally struct{ compared, fast, apiserver int64 }

func tallyValidity() validityTally {
	c, f, a := verify.ValidityDecisions()
	return validityTally{c, f, a}
}

// checkSince holds the objects validated since before to the
// apiserver's decisions: some were compared, and validity refused
// exactly those the apiserver refused, so both set aside the same share
// of pairs. Each object's reasons are held to the apiserver's as it is
// validated; this states the totals of a sweep.
func (before validityTally) checkSince(t *testing.T, sweep string) {
	t.Helper()
	now := tallyValidity()
	compared, fast, apiserver := now.compared-before.compared, now.fast-before.fast, now.apiserver-before.apiserver
	if compared == 0 {
		t.Errorf("%s: no object validated both ways; is CheckValidity on?", sweep)
		return
	}
	if fast != apiserver {
		t.Errorf("%s: validity refused %d of %d objects, the apiserver %d", sweep, fast, compared, apiserver)
	}
	t.Logf("%s: %d objects validated incrementally and whole, %d refused by both (%.2f%%)",
		sweep, compared, apiserver, 100*float64(apiserver)/float64(compared))
}
