package policyjudge_test

import (
	"os"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testgc"
	"github.com/mut2cel/mut2cel/verify"
)

// TestMain holds every new object the runs of the policy tests store
// apart from the storage pipeline to what the whole pipeline makes of it,
// as verify's own tests do, and collects garbage as the command does.
func TestMain(m *testing.M) {
	verify.CheckStoredObjects()
	testgc.Set()
	os.Exit(m.Run())
}
