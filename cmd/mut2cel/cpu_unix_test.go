//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used, its garbage
// collection's included.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
