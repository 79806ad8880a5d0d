package batch

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteInPlace replaces each changed input file with its output, as
// gofmt -w does: a file the user may not write is an error, not replaced.
// It works in steps so that a failure leaves every file as it was: first
// every changed file is locked (lockFile; a file another process holds
// is an error) and checked (still as it was read, and writable by this
// process, asked of the operating system by opening it for writing);
// then each new content goes to a temporary file in the same directory,
// given the original's owner and mode, and is synced to disk; only when
// all of them are written are they renamed over the originals, each
// rename atomic, and the locks released. A run that rewrites a file at
// the same time thus fails, rather than losing this one's change or
// having its own lost. Symbolic links are followed: the file they point
// to is replaced. It returns the names of the files written, in input
// order.
func WriteInPlace(results []*Result) ([]string, []Diagnostic) {
	locks := map[string]*lockedFile{}
	defer func() {
		for _, l := range locks {
			l.unlock()
		}
	}()
	var targets []target
	var diags []Diagnostic
	for _, r := range results {
		if !r.Changed() {
			continue
		}
		t, err := check(r, locks)
		if err != nil {
			diags = append(diags, Diagnostic{File: r.Input.Name, Detail: err.Error()})
			continue
		}
		targets = append(targets, t)
	}
	var staged []stagedFile
	if len(diags) == 0 {
		staged, diags = stageAll(targets)
	}
	if len(diags) > 0 {
		discard(staged)
		return nil, append(diags, Diagnostic{Detail: "no file was written"})
	}
	var written []string
	for i, s := range staged {
		if err := replace(s.tmp, s.path); err != nil {
			discard(staged[i:])
			return written, []Diagnostic{{File: s.name, Detail: fmt.Sprintf("%v; written before this: %d of %d files", err, i, len(staged))}}
		}
		written = append(written, s.name)
	}
	return written, nil
}

// target is a file to replace: the input's name, the file it names with
// symbolic links resolved, what the file is now, and its new content.
type target struct {
	name, path string
	info       os.FileInfo
	output     []byte
}

// check finds the file an input names, locks it (once, however many
// inputs name it; locks holds the locks taken) and makes sure it may be
// replaced.
func check(r *Result, locks map[string]*lockedFile) (target, error) {
	path, err := filepath.EvalSymlinks(r.Input.Name)
	if err != nil {
		return target{}, cleanPathError(err)
	}
	l := locks[path]
	if l == nil {
		if l, err = lockFile(path); err != nil {
			return target{}, cleanPathError(err)
		}
		locks[path] = l
	}
	if !bytes.Equal(l.data, r.Input.Data) {
		return target{}, errChanged
	}
	// Opening for writing, without truncating, changes nothing and gets
	// the answer the system would give a write: permission bits, ACLs,
	// read-only mounts, and root's privileges all count.
	f, err := os.OpenFile(path, os.O_WRONLY|openNonblock, 0)
	if err != nil {
		return target{}, fmt.Errorf("not writable: %v; -w rewrites only files you may write", cleanPathError(err))
	}
	f.Close()
	return target{name: r.Input.Name, path: path, info: l.info, output: r.Output()}, nil
}

// stagedFile is a new content waiting in tmp to replace path.
type stagedFile struct {
	name, path, tmp string
}

// stageAll stages every target, and reports every one that fails.
func stageAll(targets []target) ([]stagedFile, []Diagnostic) {
	var staged []stagedFile
	var diags []Diagnostic
	for _, t := range targets {
		s, err := stage(t)
		if err != nil {
			diags = append(diags, Diagnostic{File: t.name, Detail: err.Error()})
			continue
		}
		staged = append(staged, s)
	}
	return staged, diags
}

func stage(t target) (stagedFile, error) {
	tmp, err := stageBeside(t.path, t.output, func(f *os.File) error {
		// Owner first: changing it clears the set-user-ID and
		// set-group-ID bits that the mode may then set.
		if err := keepOwner(f, t.info); err != nil {
			return err
		}
		return f.Chmod(t.info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	})
	if err != nil {
		return stagedFile{}, err
	}
	return stagedFile{name: t.name, path: t.path, tmp: tmp}, nil
}

func discard(staged []stagedFile) {
	for _, s := range staged {
		os.Remove(s.tmp)
	}
}
