package auditrun

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testgc"
)

// TestMain collects garbage less often than go test would (testgc).
func TestMain(m *testing.M) { testgc.Main(m) }
