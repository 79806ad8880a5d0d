package inferrun_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

const widgets = "../../testdata/infer/widgets.yaml"

// TestRun proposes for the test CRD and keeps the declarations in a golden
// file; they must read as a declarations file.
func TestRun(t *testing.T) {
	out := inferrun.Run(context.Background(), inferrun.Options{Source: inferrun.Source{Paths: []string{widgets}}, Reporter: batch.Silent{}})
	if out.Exit != batch.ExitOK || len(out.Problems) > 0 {
		t.Fatalf("Run = exit %d, %v", out.Exit, out.Problems)
	}
	golden.Check(t, filepath.Join("testdata", "widgets.golden"), out.Stdout)
	if want := "mut2cel infer: 6 proposals for 1 of 1 CRD, 1 of them not sure (written commented out)"; out.Summary != want {
		t.Errorf("Summary = %q, want %q", out.Summary, want)
	}
	sets, err := decl.ParseFile("widgets.golden", out.Stdout)
	if err != nil {
		t.Fatalf("the declarations do not read: %v", err)
	}
	if len(sets) != 1 || len(sets[0].Fields) != 5 {
		t.Errorf("read %d sets (%v), want one of 5 fields", len(sets), sets)
	}
}

// TestOut writes the declarations to a file, replaces a file infer wrote,
// and refuses to replace any other, which is left as it was.
func TestOut(t *testing.T) {
	dir := t.TempDir()
	run := func(out string) batch.Outcome {
		return inferrun.Run(context.Background(), inferrun.Options{Source: inferrun.Source{Paths: []string{widgets}}, Out: out, Reporter: batch.Silent{}})
	}
	path := filepath.Join(dir, "declarations.yaml")
	for i := 0; i < 2; i++ { // a new file, then one infer wrote
		if out := run(path); out.Exit != batch.ExitOK || !strings.HasSuffix(out.Summary, "; wrote "+path) {
			t.Fatalf("Run(--out %s), run %d = exit %d, %q", path, i+1, out.Exit, out.Summary)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), inferrun.Header) {
		t.Fatalf("%s: %v, starts %q", path, err, firstLine(string(data)))
	}
	edited := filepath.Join(dir, "edited.yaml")
	mine := "# my own declarations\n"
	if err := os.WriteFile(edited, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(edited)
	if out.Exit != batch.ExitError || !strings.Contains(out.Summary, "exists and was not written by mut2cel infer") {
		t.Errorf("Run(--out %s) = exit %d, %q; want 2 and a refusal", edited, out.Exit, out.Summary)
	}
	if data, _ := os.ReadFile(edited); string(data) != mine {
		t.Errorf("%s was changed to %q", edited, data)
	}
}

// TestBadInput reports an input that holds no CRD, and a CRD that cannot
// be read, at its file and line, and writes nothing.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	noCRD := filepath.Join(dir, "configmap.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(noCRD, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), 0o644)
	os.WriteFile(bad, []byte("# a comment\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec: {versions: 3}\n"), 0o644)
	out := filepath.Join(dir, "out.yaml")
	for _, c := range []struct{ path, want string }{
		{noCRD, "no CustomResourceDefinition found in " + noCRD},
		{bad, bad + ":1: document 1 (CustomResourceDefinition/widgets.example.com): decoding the CRD: "},
	} {
		o := inferrun.Run(context.Background(), inferrun.Options{Source: inferrun.Source{Paths: []string{c.path}}, Out: out, Reporter: batch.Silent{}})
		if o.Exit != batch.ExitError || len(o.Problems) == 0 || !strings.HasPrefix(o.Problems[0].String(), c.want) {
			t.Errorf("Run(%s) = exit %d, %v; want 2 and a problem starting %q", c.path, o.Exit, o.Problems, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written by a run that failed", out)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
