package batch

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// WriteInPlace replaces each changed input file with its output. It works
// in two steps so that a failure leaves every file as it was: first each
// new content goes to a temporary file in the same directory, with the
// original's permissions, and is synced to disk; only when all of them
// are written are they renamed over the originals, each rename atomic.
// A file that changed on disk since it was read is not overwritten.
// Symbolic links are followed: the file they point to is replaced. It
// returns the names of the files written, in input order.
func WriteInPlace(results []*Result) ([]string, []Diagnostic) {
	var staged []stagedFile
	var diags []Diagnostic
	for _, r := range results {
		if !r.Changed() {
			continue
		}
		s, err := stage(r)
		if err != nil {
			diags = append(diags, Diagnostic{File: r.Input.Name, Detail: err.Error()})
			continue
		}
		staged = append(staged, s)
	}
	if len(diags) > 0 {
		discard(staged)
		return nil, append(diags, Diagnostic{Detail: "no file was written"})
	}
	var written []string
	for i, s := range staged {
		if err := os.Rename(s.tmp, s.path); err != nil {
			discard(staged[i:])
			return written, []Diagnostic{{File: s.name, Detail: fmt.Sprintf("%v; written before this: %d of %d files", err, i, len(staged))}}
		}
		syncDir(filepath.Dir(s.path))
		written = append(written, s.name)
	}
	return written, nil
}

// stagedFile is a new content waiting in tmp to replace path.
type stagedFile struct {
	name, path, tmp string
}

func stage(r *Result) (stagedFile, error) {
	path, err := filepath.EvalSymlinks(r.Input.Name)
	if err != nil {
		return stagedFile{}, cleanPathError(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return stagedFile{}, cleanPathError(err)
	}
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, r.Input.Data) {
		return stagedFile{}, fmt.Errorf("the file changed while mut2cel was running; run it again")
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".mut2cel-*")
	if err != nil {
		return stagedFile{}, cleanPathError(err)
	}
	s := stagedFile{name: r.Input.Name, path: path, tmp: f.Name()}
	_, err = f.Write(r.Output())
	if err == nil {
		err = f.Chmod(info.Mode().Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(s.tmp)
		return stagedFile{}, cleanPathError(err)
	}
	return s, nil
}

func discard(staged []stagedFile) {
	for _, s := range staged {
		os.Remove(s.tmp)
	}
}

// syncDir makes a rename durable; where directories cannot be synced, the
// rename is still atomic.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
