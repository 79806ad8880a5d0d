package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// TestCorpusReasonsVerbose refuses Knative's Revision .spec, declared
// Immutable, at Kubernetes 1.31: translate prints the first three of its
// reasons, the version requirement first, and counts the others; with -v
// it prints them all; -o json reports them all either way.
func TestCorpusReasonsVerbose(t *testing.T) {
	crd := filepath.Join(corpus.Dir(t), "knative-serving", "revision.yaml")
	decls := filepath.Join(t.TempDir(), "declarations.yaml")
	const text = "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: revisions.serving.knative.dev\nfields:\n  .spec: {x-kubernetes-mutability: Immutable}\n"
	if err := os.WriteFile(decls, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"translate", "--kube-version", "1.31", "--declarations", decls}
	translate := func(flags ...string) (stdout, stderr string) {
		t.Helper()
		var out, errOut bytes.Buffer
		all := append(append(append([]string{}, args...), flags...), crd)
		if code := run(all, strings.NewReader(""), &out, &errOut); code != exitError {
			t.Fatalf("%v = exit %d, want %d:\n%s", all, code, exitError, errOut.String())
		}
		return out.String(), errOut.String()
	}
	stdout, _ := translate("--check", "-o", "json")
	var report struct {
		Errors []struct{ Reasons []string }
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil || len(report.Errors) != 1 {
		t.Fatalf("-o json = %v, %s; want one error", err, stdout)
	}
	reasons := report.Errors[0].Reasons
	if len(reasons) <= batch.ShownReasons || !strings.HasPrefix(reasons[0], "comparing the items of spec.") {
		t.Fatalf("-o json reports %d reasons, want more than %d, the version requirement first:\n%s", len(reasons), batch.ShownReasons, strings.Join(reasons, "\n"))
	}
	_, brief := translate()
	_, verbose := translate("-v")
	for _, c := range []struct {
		name, out string
		shown     int
	}{{"without -v", brief, batch.ShownReasons}, {"-v", verbose, len(reasons)}} {
		if got := strings.Count(c.out, "\n  - "); got != c.shown {
			t.Errorf("%s: %d reasons printed, want %d:\n%s", c.name, got, c.shown, c.out)
		}
		for _, r := range reasons[:c.shown] {
			if !strings.Contains(strings.ReplaceAll(c.out, "\n  ", " "), r) {
				t.Errorf("%s: reason %q not printed:\n%s", c.name, r, c.out)
			}
		}
	}
	if more := fmt.Sprintf("and %d more (-v lists them)", len(reasons)-batch.ShownReasons); !strings.Contains(brief, more) || strings.Contains(verbose, "more (-v lists them)") {
		t.Errorf("only the run without -v should end with %q:\nwithout -v:\n%s\n-v:\n%s", more, brief, verbose)
	}
}
