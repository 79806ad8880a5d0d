package patchrun

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/backend/kustomize"
)

// TestWrite checks that Write creates the directory and a file of
// mode 0644 (a temporary file is created 0600), replaces a file it wrote, and refuses to
// replace one it did not, leaving it as it was.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app", "mut2cel", "kustomization.yaml")
	first, second := kustomize.Header+"kind: Component\n", kustomize.Header+"kind: Component\npatches: []\n"
	for _, data := range []string{first, second} {
		if got, err := Write(filepath.Dir(path), []byte(data)); err != nil || got != path {
			t.Fatalf("Write(%s) = %s, %v; want %s", filepath.Dir(path), got, err, path)
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
	_, err := Write(filepath.Dir(mine), []byte(first))
	want := mine + " exists and was not written by mut2cel patch; remove it or choose another directory"
	if err == nil || err.Error() != want {
		t.Errorf("Write over a file of the user's = %v, want %q", err, want)
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

// TestWriteNames: kustomize reads a directory's kustomization under three
// names, and refuses a directory with two. Write updates the one there
// is, under its name, rather than add kustomization.yaml beside it, and
// refuses a directory kustomize would refuse.
func TestWriteNames(t *testing.T) {
	data := kustomize.Header + "kind: Component\n"
	for _, c := range []struct {
		name  string
		have  []string // files in the directory, with data written by mut2cel
		own   string   // a file of the user's, not written by mut2cel
		write string   // the file Write writes; "" when it fails
		err   string
	}{
		{name: "none", write: "kustomization.yaml"},
		{name: "yaml", have: []string{"kustomization.yaml"}, write: "kustomization.yaml"},
		{name: "yml", have: []string{"kustomization.yml"}, write: "kustomization.yml"},
		{name: "Kustomization", have: []string{"Kustomization"}, write: "Kustomization"},
		{name: "the user's yml", own: "kustomization.yml", err: "kustomization.yml exists and was not written by mut2cel patch; remove it or choose another directory"},
		{name: "two", have: []string{"kustomization.yml"}, own: "Kustomization",
			err: "holds kustomization.yml and Kustomization: kustomize reads one kustomization a directory and refuses this one; keep one, or choose another directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			before := map[string]string{}
			for _, f := range c.have {
				before[f] = kustomize.Header + "kind: Component\npatches: []\n"
			}
			if c.own != "" {
				before[c.own] = "resources: [crds.yaml]\n"
			}
			for f, text := range before {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Write(dir, []byte(data))
			switch {
			case c.err != "" && (err == nil || !strings.HasSuffix(err.Error(), c.err)):
				t.Errorf("Write = %s, %v; want the error %q", got, err, c.err)
			case c.err == "" && (err != nil || got != filepath.Join(dir, c.write)):
				t.Errorf("Write = %s, %v; want %s", got, err, filepath.Join(dir, c.write))
			}
			entries, _ := os.ReadDir(dir)
			want := len(before)
			if c.err == "" && len(c.have) == 0 {
				want++
			}
			if len(entries) != want {
				t.Errorf("the directory holds %d files, want %d", len(entries), want)
			}
			if c.own != "" {
				if text, _ := os.ReadFile(filepath.Join(dir, c.own)); string(text) != before[c.own] {
					t.Errorf("the user's %s became %q", c.own, text)
				}
			}
		})
	}
}

// TestWriteFailureRemovesDirectories: a write that fails, as on a full
// disk, leaves no directory Write created, and keeps those that were
// there.
func TestWriteFailureRemovesDirectories(t *testing.T) {
	full := errors.New("no space left on device")
	defer func(w func(string, []byte, os.FileMode, func([]byte) error) error) { writeChecked = w }(writeChecked)
	writeChecked = func(string, []byte, os.FileMode, func([]byte) error) error { return full }
	base := t.TempDir()
	existing := filepath.Join(base, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{existing, filepath.Join(existing, "a", "b", "c")} {
		if _, err := Write(dir, []byte(kustomize.Header)); !errors.Is(err, full) {
			t.Errorf("Write(%s) = %v, want %v", dir, err, full)
		}
		if entries, err := os.ReadDir(existing); err != nil || len(entries) != 0 {
			t.Errorf("after Write(%s) failed, %s holds %v (%v), want nothing", dir, existing, entries, err)
		}
	}
}
