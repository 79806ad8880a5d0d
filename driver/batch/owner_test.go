//go:build unix

package batch

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// nobody is the user the permission tests run as when the tests run as
// root, for whom the system ignores permission bits.
const nobody = 65534

// childDirEnv names, in a test binary re-run as nobody, the directory its
// parent prepared.
const childDirEnv = "MUT2CEL_BATCH_TEST_DIR"

func owner(t *testing.T, path string) (uid, gid uint32) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// TestWriteInPlaceKeepsOwner rewrites a file that belongs to another user,
// as root: the new file has the old one's owner, group and mode. It
// also shows that root, like gofmt -w run by root, may rewrite a
// read-only file. Only root can give a file away, so the test needs root.
func TestWriteInPlaceKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	theirs, readOnly := filepath.Join(dir, "theirs.yaml"), filepath.Join(dir, "ro.yaml")
	writeFile(t, theirs, "a: 1\n", 0o604)
	writeFile(t, readOnly, "b: 1\n", 0o444)
	if err := os.Chown(theirs, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	written, diags := WriteInPlace([]*Result{changedResult(t, theirs, "a: 2\n"), changedResult(t, readOnly, "b: 2\n")})
	if len(diags) > 0 || !reflect.DeepEqual(written, []string{theirs, readOnly}) {
		t.Fatalf("WriteInPlace = %q, %v; want both written", written, diags)
	}
	if uid, gid := owner(t, theirs); uid != nobody || gid != nobody {
		t.Errorf("%s belongs to %d:%d, want %d:%d", theirs, uid, gid, nobody, nobody)
	}
	for path, want := range map[string]os.FileMode{theirs: 0o604, readOnly: 0o444} {
		if info, _ := os.Stat(path); info.Mode() != want {
			t.Errorf("%s has mode %v, want %v", path, info.Mode(), want)
		}
	}
	if data, _ := os.ReadFile(theirs); string(data) != "a: 2\n" {
		t.Errorf("%s = %q, want it rewritten", theirs, data)
	}
	checkNoTempFiles(t, dir)
}

// TestWriteInPlaceNotWritable gives -w a file the user may not write,
// and one the user may write but not give back to its owner: each is an
// error, and no file is written. Run as root, the test prepares the files
// and re-runs itself as nobody, so that the system's own permission
// checks are what is tested; run as another user, it tests the read-only
// file only, since it cannot make a file that belongs to someone else.
func TestWriteInPlaceNotWritable(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		dir = t.TempDir()
		writeFile(t, filepath.Join(dir, "mine.yaml"), "m: 1\n", 0o644)
		writeFile(t, filepath.Join(dir, "ro.yaml"), "r: 1\n", 0o444)
		if os.Geteuid() == 0 {
			writeFile(t, filepath.Join(dir, "rw.yaml"), "w: 1\n", 0o666)
			runAsNobody(t, dir)
			return
		}
	}
	mine, ro, rw := filepath.Join(dir, "mine.yaml"), filepath.Join(dir, "ro.yaml"), filepath.Join(dir, "rw.yaml")
	cases := [][]string{{mine, "m: 1\n", "m: 2\n"}, {ro, "r: 1\n", "r: 2\n"}}
	wants := []string{ro + ": not writable: permission denied; -w rewrites only files you may write", "no file was written"}
	checkNothingWritten(t, dir, cases, wants)
	if _, err := os.Stat(rw); err != nil {
		t.Log("no file of another user to test keeping the owner with")
		return
	}
	cases = [][]string{{mine, "m: 1\n", "m: 2\n"}, {rw, "w: 1\n", "w: 2\n"}}
	wants = []string{rw + ": -w replaces the file with a new one and cannot give it the owner of the old one (uid 0, gid 0): operation not permitted; run mut2cel as that user", "no file was written"}
	checkNothingWritten(t, dir, cases, wants)
}

// checkNothingWritten rewrites each of files (path, content, new content)
// and checks that WriteInPlace reports wants and leaves every file as it
// was.
func checkNothingWritten(t *testing.T, dir string, files [][]string, wants []string) {
	t.Helper()
	var results []*Result
	for _, f := range files {
		results = append(results, changedResult(t, f[0], f[2]))
	}
	written, diags := WriteInPlace(results)
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if len(written) > 0 || !reflect.DeepEqual(got, wants) {
		t.Errorf("WriteInPlace = %q, %q; want nothing written and %q", written, got, wants)
	}
	for _, f := range files {
		if data, _ := os.ReadFile(f[0]); string(data) != f[1] {
			t.Errorf("%s = %q, want it untouched", f[0], data)
		}
	}
	checkNoTempFiles(t, dir)
}

// runAsNobody runs the calling test in a copy of the test binary as user
// nobody, on the files prepared in dir, which it opens to that user.
func runAsNobody(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(filepath.Join(dir, "mine.yaml"), nobody, nobody); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(filepath.Dir(dir), "batch.test")
	copyExecutable(t, bin)
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ran := err.(*exec.ExitError); !ran {
			t.Skipf("cannot run the test as user nobody: %v", err)
		}
		t.Errorf("as user nobody: %v\n%s", err, out)
	}
}

// copyExecutable copies the running test binary to path, where another
// user may run it (the build cache is private to its owner).
func copyExecutable(t *testing.T, path string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
