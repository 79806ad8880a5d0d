package e2e

import (
	"flag"
	"os"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testgc"
)

// TestMain lets more subtests run at once than the cores, unless
// -parallel is given: they wait on the apiserver (a CRD established, an
// object written) far more than they compute. It collects garbage less
// often than go test would (testgc).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "8")
	}
	testgc.Set()
	os.Exit(m.Run())
}
