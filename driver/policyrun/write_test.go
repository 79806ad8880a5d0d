package policyrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func file(name string) File {
	return File{Name: name, CRD: "widgets.example.com", Data: []byte(Header + "kind: X\n")}
}

// TestWrite: the files and the kustomization are written; a second run
// removes what it no longer writes, and leaves files it did not write.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Write(dir, []File{file("a.yaml"), file("b.yaml")}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte("kind: Mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, err := Write(dir, []File{file("a.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 || !strings.HasSuffix(written[1], KustomizationName) {
		t.Errorf("Write = %v, want a.yaml then the kustomization", written)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "a.yaml kustomization.yaml mine.yaml" {
		t.Errorf("the directory holds %s, want a.yaml kustomization.yaml mine.yaml", got)
	}
	k, _ := os.ReadFile(filepath.Join(dir, KustomizationName))
	if want := Header + "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- a.yaml\n"; string(k) != want {
		t.Errorf("kustomization:\n%s\nwant:\n%s", k, want)
	}
}

// TestWriteRefusesForeignFiles: a file of the same name that mut2cel did
// not write stops the run before anything is written.
func TestWriteRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("kind: Mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(dir, []File{file("a.yaml"), file("b.yaml")})
	if err == nil || !strings.Contains(err.Error(), "b.yaml exists and was not written by mut2cel policy") {
		t.Fatalf("Write = %v, want a refusal of b.yaml", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.yaml")); !os.IsNotExist(err) {
		t.Errorf("a.yaml was written before the refusal")
	}
}
