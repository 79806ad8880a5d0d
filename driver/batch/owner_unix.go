//go:build unix

package batch

import (
	"fmt"
	"os"
	"syscall"
)

// keepOwner gives the new file f the owner and group of the file it
// replaces. A user may only give a file away when they are root, or keep
// it theirs and pick a group they belong to; otherwise -w cannot replace
// the file without changing its owner, and fails.
func keepOwner(f *os.File, old os.FileInfo) error {
	want, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if have, ok := info.Sys().(*syscall.Stat_t); ok && have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("-w replaces the file with a new one and cannot give it the owner of the old one (uid %d, gid %d): %v; run mut2cel as that user",
			want.Uid, want.Gid, cleanPathError(err))
	}
	return nil
}
