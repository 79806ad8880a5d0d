package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/testkit/corpus"
)

// TestCorpusReasonsVerbose refuses Karpenter's NodeClaim .spec, declared
// Immutable, for its four reasons at Kubernetes 1.31: translate prints
// the first three and counts the last; with -v it prints all four; -o
// json reports all four either way.
func TestCorpusReasonsVerbose(t *testing.T) {
	crd := filepath.Join(corpus.Dir(t), "karpenter", "karpenter.sh_nodeclaims.yaml")
	decls := filepath.Join(t.TempDir(), "declarations.yaml")
	const text = "apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: nodeclaims.karpenter.sh\nfields:\n  .spec: {x-kubernetes-mutability: Immutable}\n"
	if err := os.WriteFile(decls, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name             string
		flags            []string
		reasons          int
		more, jsonReport bool
	}{
		{name: "first three", reasons: 3, more: true},
		{name: "-v", flags: []string{"-v"}, reasons: 4},
		{name: "-o json", flags: []string{"--check", "-o", "json"}, reasons: 4, jsonReport: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"translate", "--kube-version", "1.31", "--declarations", decls}, c.flags...)
			var stdout, stderr bytes.Buffer
			if code := run(append(args, crd), strings.NewReader(""), &stdout, &stderr); code != exitError {
				t.Fatalf("%v = exit %d, want %d:\n%s", args, code, exitError, stderr.String())
			}
			out := stderr.String()
			if c.jsonReport {
				out = stdout.String()
			}
			if !strings.Contains(out, "for 4 reasons") {
				t.Errorf("%v does not say how many reasons there are:\n%s", args, out)
			}
			got := strings.Count(out, "\n  - ")
			if c.jsonReport {
				if !strings.Contains(out, `"reasons"`) {
					t.Errorf("%v reports no reasons field:\n%s", args, out)
				}
				got = strings.Count(out, "the value at spec.") + strings.Count(out, "comparing the items of spec.")
			}
			if got != c.reasons {
				t.Errorf("%v prints %d reasons, want %d:\n%s", args, got, c.reasons, out)
			}
			if more := strings.Contains(out, "and 1 more (-v lists them)"); more != c.more {
				t.Errorf("%v: counts the reasons left out: %v, want %v:\n%s", args, more, c.more, out)
			}
		})
	}
}
