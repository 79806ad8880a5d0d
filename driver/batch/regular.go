package batch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ReadFile reads the regular file at path, as os.ReadFile does, and
// refuses anything else before reading a byte: a named pipe that no one
// writes would block the read forever, and a device such as /dev/zero
// never ends. The file is opened without waiting for a writer
// (openNonblock) and checked once open, so that it cannot be swapped for
// something else between the check and the read.
// It reads at most the bytes and values of internal/limits. Errors are
// *fs.PathError, as those of os.ReadFile, except for a limit passed
// (*limitError, which names the file and the limit).
func ReadFile(path string) ([]byte, error) { return newBudget().readFile(path) }

// readFile is ReadFile within the budget b.
func (b *budget) readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(info.Mode()); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return b.readAll(path, f)
}

// errNotRegular is the error of a file that is not a regular one.
var errNotRegular = errors.New("mut2cel reads only regular files")

// regular refuses a file that is not a regular one, saying what it is:
// "a named pipe (FIFO), not a regular file: mut2cel reads only regular
// files" (errNotRegular).
func regular(mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case mode&fs.ModeCharDevice != 0:
		what = "a character device"
	case mode&fs.ModeDevice != 0:
		what = "a block device"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode.IsDir():
		what = "a directory"
	}
	return fmt.Errorf("%s, not a regular file: %w", what, errNotRegular)
}
