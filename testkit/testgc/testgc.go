// Package testgc sets the garbage collector's target of a test binary.
//
// Input: the GOGC environment variable. Output: the runtime's target set
// once, before a package's tests run. Invariant: a GOGC set by the one
// who runs the tests wins.
package testgc

import (
	"os"
	"runtime/debug"
	"testing"
)

// Percent is the target the tests run at: the one the mut2cel command
// runs Verify with (verify.GCPercent; verify's TestGCPercentOfTests holds
// them equal). The apiserver's CEL evaluation and schema validation
// allocate on every field access while the live heap stays small: at go
// test's default of 100 the collector took about 40% of the CPU of
// verify's corpus sweep and about 20% of the command's and the
// compiler's tests.
const Percent = 400

// Main is a TestMain that sets the target and runs the tests.
func Main(m *testing.M) {
	Set()
	os.Exit(m.Run())
}

// Set sets the target, unless GOGC is set, for a TestMain that does more
// than Main.
func Set() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
