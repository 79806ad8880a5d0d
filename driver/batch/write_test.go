package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/manifest"
)

// changedResult reads a file and gives it new content, as a translation
// would.
func changedResult(t *testing.T, path, output string) *Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := manifest.Parse(path, []byte(output))
	if err != nil {
		t.Fatal(err)
	}
	return &Result{Input: Input{Name: path, Data: data}, File: f}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestWriteInPlace(t *testing.T) {
	dir := t.TempDir()
	a, b, same := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "same.yaml")
	link := filepath.Join(dir, "link.yaml")
	writeFile(t, a, "a: 1\n", 0o640)
	writeFile(t, b, "b: 1\n", 0o600)
	writeFile(t, same, "s: 1\n", 0o644)
	if err := os.Symlink("b.yaml", link); err != nil {
		t.Fatal(err)
	}
	results := []*Result{changedResult(t, a, "a: 2\n"), changedResult(t, same, "s: 1\n"), changedResult(t, link, "b: 2\n")}
	written, diags := WriteInPlace(results)
	if len(diags) > 0 || !reflect.DeepEqual(written, []string{a, link}) {
		t.Fatalf("WriteInPlace = %q, %v; want %q", written, diags, []string{a, link})
	}
	for path, want := range map[string]string{a: "a: 2\n", b: "b: 2\n", same: "s: 1\n"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	for path, want := range map[string]os.FileMode{a: 0o640, b: 0o600} {
		if info, _ := os.Stat(path); info.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", path, info.Mode().Perm(), want)
		}
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced by a file")
	}
	checkNoTempFiles(t, dir)
}

// TestWriteInPlaceNothingOnError changes one file on disk after it was
// read: no file may be written, and no temporary file left.
func TestWriteInPlaceNothingOnError(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	writeFile(t, a, "a: 1\n", 0o644)
	writeFile(t, b, "b: 1\n", 0o644)
	results := []*Result{changedResult(t, a, "a: 2\n"), changedResult(t, b, "b: 2\n")}
	writeFile(t, b, "b: edited meanwhile\n", 0o644)
	written, diags := WriteInPlace(results)
	want := []string{b + ": the file changed while mut2cel was running; run it again", "no file was written"}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if len(written) > 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("WriteInPlace = %q, %q; want nothing written and %q", written, got, want)
	}
	if data, _ := os.ReadFile(a); string(data) != "a: 1\n" {
		t.Errorf("a.yaml was written: %q", data)
	}
	checkNoTempFiles(t, dir)
}

func checkNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mut2cel-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
