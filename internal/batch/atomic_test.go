package batch

import (
	"os"
	"path/filepath"
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
