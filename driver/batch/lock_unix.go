//go:build unix

package batch

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an exclusive advisory lock on f without waiting. A lock
// another process holds is errLocked; a file system without locks (some
// network and FUSE ones) lets f go unlocked.
func flock(f *os.File) error {
	conn, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lockErr error
	if err := conn.Control(func(fd uintptr) {
		for {
			lockErr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if lockErr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	switch {
	case errors.Is(lockErr, syscall.EWOULDBLOCK):
		return errLocked
	case errors.Is(lockErr, syscall.ENOLCK), errors.Is(lockErr, syscall.EOPNOTSUPP), errors.Is(lockErr, syscall.ENOSYS), errors.Is(lockErr, syscall.EBADF):
		return nil
	}
	return lockErr
}
