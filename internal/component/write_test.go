package component

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFile checks that WriteFile creates the directory and a file of
// mode 0644 (a temporary file is created 0600), replaces a file it wrote, and refuses to
// replace one it did not, leaving it as it was.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app", "mut2cel", "kustomization.yaml")
	first, second := Header+"kind: Component\n", Header+"kind: Component\npatches: []\n"
	for _, data := range []string{first, second} {
		if err := WriteFile(path, []byte(data)); err != nil {
			t.Fatalf("WriteFile(%s): %v", path, err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("%s = %q, want %q", path, got, data)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v (%v), want 0644", path, info.Mode().Perm(), err)
		}
	}

	mine := filepath.Join(dir, "mine", "kustomization.yaml")
	own := "resources: [crds.yaml]\n"
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(mine, []byte(first))
	want := mine + " exists and was not written by mut2cel patch; remove it or choose another --dir"
	if err == nil || err.Error() != want {
		t.Errorf("WriteFile over a file of the user's = %v, want %q", err, want)
	}
	if got, _ := os.ReadFile(mine); string(got) != own {
		t.Errorf("the user's file became %q", got)
	}
	for _, d := range []string{filepath.Dir(path), filepath.Dir(mine)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".mut2cel-") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}
