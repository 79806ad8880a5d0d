package markers

import (
	"os/exec"
	"strings"
	"testing"
)

// TestControllerToolsStaysHere checks that controller-tools, which only
// the Go front end needs, does not reach the packages of the other
// phases: they stay usable, and small, without it.
func TestControllerToolsStaysHere(t *testing.T) {
	pkgs := []string{"../../crd", "../../decl", "../../translate", "../../verify", "../../costest", "../../plan", "../../backend/crdrules", "../../backend/kustomize", "../../driver/batch", "../../manifest"}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "sigs.k8s.io/controller-tools/") {
			t.Errorf("go list -deps %s has %s: only markers may import controller-tools", strings.Join(pkgs, " "), p)
		}
	}
}
