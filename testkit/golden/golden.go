// Package golden gives tests one -update flag and one way to compare an
// output with its golden file, so that `go test ./... -update` rewrites
// every golden file of the module.
//
// Every test package imports it, also those without golden files: a test
// binary stops on a flag it does not define, and `go test ./... -update`
// passes -update to all of them.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite the golden files instead of
// comparing with them.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/ (and examples/translated)")

// Check compares got with the golden file at path, or, with -update,
// writes got there (creating its directory).
func Check(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update creates it)", err)
	}
	if string(got) != string(want) {
		tb.Errorf("output differs from %s (go test -update rewrites it; review the diff):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
