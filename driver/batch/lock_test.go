//go:build unix

package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// TestWriteInPlaceLocked holds the lock of one of two files, as a
// concurrent run rewriting it would: nothing is written, the locked file
// is named, and its lock is not taken from its holder.
func TestWriteInPlaceLocked(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	writeFile(t, a, "a: 1\n", 0o644)
	writeFile(t, b, "b: 1\n", 0o644)
	results := []*Result{changedResult(t, a, "a: 2\n"), changedResult(t, b, "b: 2\n")}
	holder, err := os.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	written, diags := WriteInPlace(results)
	want := []string{b + ": another process is rewriting the file (it holds a lock on it); run mut2cel again when it is done", "no file was written"}
	if got := diagStrings(diags); len(written) > 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("WriteInPlace = %q, %q; want nothing written and %q", written, got, want)
	}
	for path, want := range map[string]string{a: "a: 1\n", b: "b: 1\n"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	checkNoTempFiles(t, dir)
	// The lock of a is released: a second run may write it.
	if written, diags := WriteInPlace(results[:1]); len(diags) > 0 || len(written) != 1 {
		t.Errorf("WriteInPlace after the first = %q, %q; want a written", written, diagStrings(diags))
	}
}

// TestLockFileReplaced: a file renamed over the path between its opening
// and its locking is not the file to check; lockFile opens the new one.
func TestLockFileReplaced(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "new.yaml")
	writeFile(t, path, "a: 1\n", 0o644)
	writeFile(t, other, "a: 2\n", 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if _, retry, err := lockOpened(path, f); !retry || err != errChanged {
		t.Errorf("lockOpened of a replaced file = retry %v, %v; want retry and %v", retry, err, errChanged)
	}
	f.Close()
	l, err := lockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.unlock()
	if string(l.data) != "a: 2\n" {
		t.Errorf("lockFile read %q, want the new file's content", l.data)
	}
}

// TestWriteFileCheckedLocked: a file another process holds the lock of
// is not replaced.
func TestWriteFileCheckedLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.yaml")
	writeFile(t, path, "# ours\n", 0o644)
	holder, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	err = WriteFileChecked(path, []byte("# ours 2\n"), 0o644, func([]byte) error { return nil })
	if want := path + ": " + errLocked.Error(); err == nil || err.Error() != want {
		t.Errorf("WriteFileChecked of a locked file = %v, want %s", err, want)
	}
}
