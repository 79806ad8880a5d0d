package policyjudge_test

import (
	"os"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// TestMain holds every new object the runs of the policy tests store
// apart from the storage pipeline to what the whole pipeline makes of it,
// as verify's own tests do.
func TestMain(m *testing.M) {
	verify.CheckStoredObjects()
	os.Exit(m.Run())
}
