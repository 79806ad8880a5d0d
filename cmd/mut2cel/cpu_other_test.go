//go:build !unix

package main

import "time"

// cpuTime is not measured here: the benchmarks report it on Unix.
func cpuTime() time.Duration { return 0 }
