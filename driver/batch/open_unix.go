//go:build unix

package batch

import "syscall"

// openNonblock opens a named pipe without waiting for a writer, so that
// ReadFile can refuse it instead of blocking in open.
const openNonblock = syscall.O_NONBLOCK
