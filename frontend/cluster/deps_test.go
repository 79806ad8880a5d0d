package cluster_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadsOnly keeps the package a source of documents: it reaches
// none of the phases that make or check rules, nor the drivers.
func TestReadsOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/mut2cel/mut2cel/"
	for _, p := range strings.Fields(string(out)) {
		for _, banned := range []string{"translate", "compiler", "backend", "verify", "plan", "driver", "cmd"} {
			if p == module+banned || strings.HasPrefix(p, module+banned+"/") {
				t.Errorf("frontend/cluster depends on %s", p)
			}
		}
	}
}
