package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// serverOnly are packages that only verify --server needs: etcd, the
// apiserver's storage on it, the apiextensions-apiserver itself (whose
// schema, validation and CEL subpackages every build needs), its wiring
// in driver/apiserver, and driver/policyserver, which runs the
// admission-policy plugins in it; and the admission-policy code that
// judges policies in process, which only the same build links.
var serverOnly = []string{
	"github.com/mut2cel/mut2cel/driver/apiserver",
	"github.com/mut2cel/mut2cel/driver/policyserver",
	"go.etcd.io/etcd/server/v3/embed",
	"k8s.io/apiserver/pkg/storage/etcd3",
	"k8s.io/apiextensions-apiserver/pkg/apiserver",
	// The admission-policy code that judges policies in process
	// (driver/policyjudge): its validating plugin imports client-go's fake
	// clientset, which registers every built-in API type with all its
	// methods; with client-go's scheme, about 20 MB of a 79 MB binary.
	"github.com/mut2cel/mut2cel/driver/policyjudge",
	"github.com/mut2cel/mut2cel/internal/admit",
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating",
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch",
	"k8s.io/client-go/kubernetes/fake",
	"k8s.io/client-go/kubernetes/scheme",
}

// TestNoServerDeps checks that the default binary leaves out the
// apiserver and etcd of verify --server, which about double its size,
// and that the build with the server tag has them, so that a renamed
// package cannot make the check pass by itself.
func TestNoServerDeps(t *testing.T) {
	var bad []string
	for p := range deps(t) {
		if slices.Contains(serverOnly, p) || strings.HasPrefix(p, "go.etcd.io/") {
			bad = append(bad, p)
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		t.Errorf("go list -deps ./cmd/mut2cel has %d packages only a build with -tags server may have:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	full := deps(t, "-tags", "server")
	for _, p := range serverOnly {
		if !full[p] {
			t.Errorf("go list -deps -tags server ./cmd/mut2cel lacks %s", p)
		}
	}
}

// deps returns the packages the command imports, directly or not, when
// built with flags.
func deps(t *testing.T, flags ...string) map[string]bool {
	t.Helper()
	args := append(append([]string{"list", "-deps"}, flags...), ".")
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*exec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	pkgs := make(map[string]bool)
	for _, p := range strings.Fields(string(out)) {
		pkgs[p] = true
	}
	return pkgs
}
