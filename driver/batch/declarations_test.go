package batch

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// declarationsFile declares for three CRDs, of which a run may hold some,
// all, or none.
const declarationsFile = `apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .spec.a:
    x-kubernetes-mutability: Immutable
---
apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: gadgets.example.com
fields:
  .spec.b:
    x-kubernetes-mutability: Immutable
---
apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: gizmos.example.com
fields:
  .spec.c:
    x-kubernetes-mutability: Immutable
`

// TestDeclarationSetsUnused checks that a set naming no input CRD is a
// warning while another set names one, and an error when none does.
func TestDeclarationSetsUnused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decl.yaml")
	writeFile(t, path, declarationsFile, 0o644)
	named := func(name string) map[string]interface{} {
		return map[string]interface{}{"metadata": map[string]interface{}{"name": name}}
	}
	for _, c := range []struct {
		name           string
		inputs         []string
		warnings, errs []string
	}{
		{"every set used", []string{"widgets.example.com", "gadgets.example.com", "gizmos.example.com"}, nil, nil},
		{"one set unused", []string{"widgets.example.com", "gizmos.example.com", "other.example.com"},
			[]string{path + ":8: warning: crd gadgets.example.com: no CRD of this name in the inputs"}, nil},
		{"several sets unused", []string{"widgets.example.com"}, []string{
			path + ":8: warning: 2 documents declare for CRDs not in the inputs (lines 8, 15)"}, nil},
		{"no set used", []string{"other.example.com"}, nil, []string{
			path + ":1: crd widgets.example.com: no CRD of this name in the inputs",
			path + ":8: crd gadgets.example.com: no CRD of this name in the inputs",
			path + ":15: crd gizmos.example.com: no CRD of this name in the inputs",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sets, diags := ReadDeclarations([]string{path})
			if len(diags) > 0 || len(sets.Sets) != 3 {
				t.Fatalf("ReadDeclarations(%s) = %d sets, %v; want 3 sets", path, len(sets.Sets), diags)
			}
			for _, name := range c.inputs {
				sets.See(named(name))
			}
			warnings, errs := sets.Unused()
			if got := diagStrings(warnings); !reflect.DeepEqual(got, c.warnings) {
				t.Errorf("Unused() warnings = %q, want %q", got, c.warnings)
			}
			if got := diagStrings(errs); !reflect.DeepEqual(got, c.errs) {
				t.Errorf("Unused() errors = %q, want %q", got, c.errs)
			}
		})
	}
}

// TestReadDeclarationsErrors checks that a missing file and each bad line
// of a file are reported, each where it is.
func TestReadDeclarationsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	writeFile(t, bad, "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\nfields:\n  .spec.a:\n    x-kubernetes-mutability: Sometimes\n", 0o644)
	_, diags := ReadDeclarations([]string{filepath.Join(dir, "missing.yaml"), bad})
	got := diagStrings(diags)
	if len(got) != 2 || got[0] != "--declarations: open "+filepath.Join(dir, "missing.yaml")+": no such file or directory" ||
		!strings.HasPrefix(got[1], bad+":6: ") {
		t.Errorf("ReadDeclarations = %q; want the missing file, then %s:6", got, bad)
	}
}

func diagStrings(diags []Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.String())
	}
	return out
}
