package testgc_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testgc"
	"github.com/mut2cel/mut2cel/verify"
)

// TestPercent holds the tests' target to the command's: the tests that
// run Verify measure what users run.
func TestPercent(t *testing.T) {
	if testgc.Percent != verify.GCPercent {
		t.Errorf("testgc.Percent is %d, verify.GCPercent %d", testgc.Percent, verify.GCPercent)
	}
}
