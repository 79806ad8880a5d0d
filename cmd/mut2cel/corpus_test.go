package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// TestCorpusRewriteUnchanged copies the corpus and runs translate -w on
// the copy: CRDs without declarations must come out byte for byte. One
// declared example goes with them, since a run that declares nothing is
// an error and writes nothing.
func TestCorpusRewriteUnchanged(t *testing.T) {
	files := corpus.Files(t)
	corpusDir := corpus.Dir(t)
	dir := t.TempDir()
	for _, p := range files {
		rel, _ := filepath.Rel(corpusDir, p)
		copyFile(t, p, filepath.Join(dir, rel))
	}
	declared := filepath.Join(dir, "zz-declared", "gatewayclass.yaml")
	copyFile(t, "../../examples/gatewayclass.yaml", declared)
	start := time.Now()
	var stderr bytes.Buffer
	if code := run([]string{"translate", "-w", dir}, strings.NewReader(""), io.Discard, &stderr); code != exitOK {
		t.Fatalf("translate -w on the corpus = %d:\n%s", code, stderr.String())
	}
	t.Logf("translate -w on %d corpus files took %v", len(files), time.Since(start))
	if got, _ := os.ReadFile(declared); bytes.Equal(got, []byte(readFile(t, "../../examples/gatewayclass.yaml"))) {
		t.Errorf("translate -w did not translate %s", declared)
	}
	for _, p := range files {
		rel, _ := filepath.Rel(corpusDir, p)
		want, _ := os.ReadFile(p)
		if got, _ := os.ReadFile(filepath.Join(dir, rel)); !bytes.Equal(got, want) {
			t.Errorf("translate -w changed %s", rel)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// declare adds a declaration at the property path props of every version
// of every CRD in the file that has it, as a user would, by node editing.
// It returns the new file and how many declarations it added.
func declare(t *testing.T, name string, data []byte, ext, value string, props ...string) ([]byte, int) {
	t.Helper()
	f, err := manifest.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	added := 0
	for _, d := range f.Docs {
		v := d.Value()
		if v == nil || !translate.IsCRD(v) {
			continue
		}
		versions, _ := v["spec"].(map[string]interface{})["versions"].([]interface{})
		var edits []edit.Edit
		for i := range versions {
			path := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
			for _, p := range props {
				path = append(path, "properties", p)
			}
			if _, err := edit.Apply(v, []edit.Edit{{Path: path}}); err == nil {
				edits = append(edits, edit.Edit{Path: path, Set: []edit.Setting{{Key: ext, Value: value}}})
			}
		}
		if err := d.Apply(edits); err != nil {
			t.Fatalf("declaring in %s: %v", name, err)
		}
		if d.Reformatted() {
			t.Fatalf("declaring in %s re-encoded document %d", name, d.Index()+1)
		}
		added += len(edits)
	}
	return f.Bytes(), added
}
