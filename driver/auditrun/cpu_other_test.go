//go:build !unix

package auditrun_test

import "time"

// cpuTime is not measured here: BenchmarkAuditCorpus reports CPU time on
// Unix only.
func cpuTime() time.Duration { return 0 }
