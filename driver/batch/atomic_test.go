package batch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFile checks that WriteFile gives the file the mode asked for,
// creating or replacing it, and that a failure names the file and leaves
// no temporary file behind.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	writeFile(t, path, "old\n", 0o600)
	for _, c := range []struct {
		data string
		perm os.FileMode
	}{{"new\n", 0o644}, {"newer\n", 0o640}} {
		if err := WriteFile(path, []byte(c.data), c.perm); err != nil {
			t.Fatalf("WriteFile(%s): %v", path, err)
		}
		if got, _ := os.ReadFile(path); string(got) != c.data {
			t.Errorf("%s = %q, want %q", path, got, c.data)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != c.perm {
			t.Errorf("%s has mode %v, want %v", path, info.Mode().Perm(), c.perm)
		}
	}
	checkNoTempFiles(t, dir)

	missing := filepath.Join(dir, "missing", "out.yaml")
	err := WriteFile(missing, []byte("x\n"), 0o644)
	if want := missing + ": cannot create the new file beside it: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("WriteFile in a missing directory = %v, want %q", err, want)
	}
}

// TestWriteFileChecked creates a file, replaces it when keep allows, and
// leaves it alone when keep refuses or when one appears between the
// check and the creation.
func TestWriteFileChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	refuse := errors.New("not ours")
	keepOurs := func(old []byte) error {
		if !strings.HasPrefix(string(old), "# ours") {
			return refuse
		}
		return nil
	}
	for _, c := range []struct {
		data string
		want error
		file string
	}{
		{"# ours 1\n", nil, "# ours 1\n"},
		{"# ours 2\n", nil, "# ours 2\n"},
	} {
		if err := WriteFileChecked(path, []byte(c.data), 0o644, keepOurs); err != c.want {
			t.Errorf("WriteFileChecked(%q) = %v, want %v", c.data, err, c.want)
		}
		if got, _ := os.ReadFile(path); string(got) != c.file {
			t.Errorf("%s = %q, want %q", path, got, c.file)
		}
	}
	writeFile(t, path, "theirs\n", 0o644)
	if err := WriteFileChecked(path, []byte("# ours 3\n"), 0o644, keepOurs); err != refuse {
		t.Errorf("WriteFileChecked over another's file = %v, want %v", err, refuse)
	}
	if err := createFile(path, []byte("# ours 4\n"), 0o644); err == nil || err.Error() != path+": the file changed while mut2cel was running; run it again" {
		t.Errorf("createFile over a file that appeared = %v, want the file changed", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "theirs\n" {
		t.Errorf("%s = %q, want it left alone", path, got)
	}
	checkNoTempFiles(t, dir)
}
