//go:build !unix

package auditrun_test

import "time"

// cpuTime is not measured here: the budget is checked on Unix.
func cpuTime() time.Duration { return 0 }
