package batch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces or creates the file at path with data, atomically:
// a reader sees the old content or the new one, never a part of it. The
// new file has mode perm.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := stageBeside(path, data, func(f *os.File) error { return f.Chmod(perm) })
	if err == nil {
		if err = replace(tmp, path); err != nil {
			os.Remove(tmp)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// WriteFileChecked is WriteFile for a file that may already exist and be
// someone else's: keep says, from its content, whether it may be
// replaced. The file is locked while keep reads it and the new one is
// renamed over it, as WriteInPlace does, so that a file another process
// writes meanwhile is not replaced unseen; a file that did not exist is
// created only if it still does not (a hard link, which fails on an
// existing name).
func WriteFileChecked(path string, data []byte, perm fs.FileMode, keep func(old []byte) error) error {
	l, err := lockFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createFile(path, data, perm)
	case err != nil:
		return fmt.Errorf("%s: %v", path, cleanPathError(err))
	}
	defer l.unlock()
	if err := keep(l.data); err != nil {
		return err
	}
	return WriteFile(path, data, perm)
}

// createFile writes a new file at path, atomically, unless one appears
// there meanwhile.
func createFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := stageBeside(path, data, func(f *os.File) error { return f.Chmod(perm) })
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	defer os.Remove(tmp)
	switch err := os.Link(tmp, path); {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s: %v", path, errChanged)
	}
	// No hard links on this file system: rename, as WriteFile does.
	if err := replace(tmp, path); err != nil {
		return fmt.Errorf("%s: %v", path, cleanPathError(err))
	}
	return nil
}

// stageBeside writes data to a new temporary file in the directory of
// path, where a rename over path is atomic, lets prepare give it its
// owner and mode, and syncs it to disk. On failure it leaves nothing
// behind.
func stageBeside(path string, data []byte, prepare func(*os.File) error) (tmp string, _ error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".mut2cel-*")
	if err != nil {
		return "", fmt.Errorf("cannot create the new file beside it: %v", cleanPathError(err))
	}
	_, err = f.Write(data)
	if err == nil {
		err = prepare(f)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", cleanPathError(err)
	}
	return f.Name(), nil
}

// replace renames tmp over path, then syncs the directory so that the
// rename is durable; where directories cannot be synced, the rename is
// still atomic.
func replace(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
