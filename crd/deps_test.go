package crd

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mut2cel/mut2cel/"

// below are the packages of this module crd may import: the rest of the
// model, which imports only leaves, and the leaves under internal/leaf,
// which import nothing of the module. Everything that reads a CRD (the
// front ends, translate, costest, verify, the drivers under internal/ and
// the command) sits above the model and may import it; none of them may
// sit below it. internal/layers checks the layers of the whole module;
// this test names the model's own dependencies.
var below = []string{"decl", "edit", "internal/kube", "internal/diag"}

const leaves = module + "internal/"

// TestModelImportsOnlyLeaves keeps the model at the bottom of the phases
// (issue 23, "layers you can see"): it imports only the packages in
// below, and they import nothing but leaves.
func TestModelImportsOnlyLeaves(t *testing.T) {
	allowed := map[string]bool{module + "crd": true}
	for _, p := range below {
		allowed[module+p] = true
	}
	for p := range moduleDeps(t, ".") {
		if !allowed[p] {
			t.Errorf("crd imports %s: the model may import only %s", p, strings.Join(below, ", "))
		}
	}
	for _, leaf := range below {
		for p := range moduleDeps(t, "../"+leaf) {
			if p != module+leaf && !strings.HasPrefix(p, leaves) {
				t.Errorf("%s imports %s: below crd only leaves may be imported", leaf, p)
			}
		}
	}
}

// moduleDeps are the packages of this module that dir's package
// imports, directly or not, itself included.
func moduleDeps(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", dir).Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go list -deps %s: %v\n%s", dir, err, stderr)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, module) {
			deps[p] = true
		}
	}
	return deps
}
