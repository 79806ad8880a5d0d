package batch

import (
	"errors"
	"io"
	"os"

	"github.com/mut2cel/mut2cel/internal/limits"
)

// Concurrent rewrites of one file (two translate -w runs, say) must not
// lose a change. Each run checks that a file is still as it read it and
// renames its new content over it while it holds an exclusive advisory
// lock (flock) on the file, as editors do, so that the check and the
// rename are one step for every process that takes the lock: the second
// run finds the file locked, or changed, and fails; it never replaces
// the first run's result with its own made from the old content.

// errLocked is the error of a file another process holds the lock of.
var errLocked = errors.New("another process is rewriting the file (it holds a lock on it); run mut2cel again when it is done")

// errChanged is the error of a file that is no longer as it was read.
var errChanged = errors.New("the file changed while mut2cel was running; run it again")

// lockedFile is a file opened and locked until its new content replaces
// it: info and data are what it is under the lock.
type lockedFile struct {
	f    *os.File
	info os.FileInfo
	data []byte
}

// lockFile opens the regular file at path and locks it without waiting:
// a file locked by another process is errLocked. Since a rewrite renames
// a new file over the path, the file locked must still be the one at path
// once the lock is held; otherwise it was replaced meanwhile and is
// opened again. Where the file system has no locks, the file is read
// without one.
func lockFile(path string) (*lockedFile, error) {
	for tries := 0; ; tries++ {
		f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
		if err != nil {
			return nil, err
		}
		l, retry, err := lockOpened(path, f)
		if err == nil {
			return l, nil
		}
		f.Close()
		if !retry || tries == 3 {
			return nil, err
		}
	}
}

// lockOpened locks f, opened at path, and reads it; retry says that the
// file at path was replaced after f was opened.
func lockOpened(path string, f *os.File) (_ *lockedFile, retry bool, _ error) {
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if err := regular(info.Mode()); err != nil {
		return nil, false, err
	}
	if err := flock(f); err != nil {
		return nil, false, err
	}
	now, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, false, err
	case !os.SameFile(info, now):
		return nil, true, errChanged
	}
	// The file is compared with what was read, within the limits:
	// reading it whole would let a file grown since use any memory.
	data, err := io.ReadAll(io.LimitReader(f, limits.InputBytes+1))
	if err != nil {
		return nil, false, err
	}
	return &lockedFile{f: f, info: info, data: data}, false, nil
}

// unlock releases the lock, by closing the file.
func (l *lockedFile) unlock() { l.f.Close() }
