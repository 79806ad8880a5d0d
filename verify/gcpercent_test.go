package verify

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testgc"
)

// TestGCPercentOfTests holds the garbage collector's target of the tests
// (testgc.Percent) to the command's: the tests that run Verify measure
// what users run.
func TestGCPercentOfTests(t *testing.T) {
	if testgc.Percent != GCPercent {
		t.Errorf("testgc.Percent is %d, GCPercent %d", testgc.Percent, GCPercent)
	}
}
