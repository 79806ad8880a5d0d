package auditrun_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/mut2cel/mut2cel/driver/auditrun"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// BenchmarkAuditCorpus audits the whole corpus once per op, as
// mut2cel audit ../shared/corpus does with one job per core, and reports
// the CPU time of each op besides the clock's: docs/audit.md gives the
// command a minute on each of two cores.
//
//	go test ./driver/auditrun -run '^$' -bench AuditCorpus -benchtime 1x -count 6 | benchstat -
func BenchmarkAuditCorpus(b *testing.B) {
	dir := corpus.Dir(b)
	before := cpuTime()
	for b.Loop() {
		out := auditrun.Run(context.Background(), auditrun.Options{Source: inferrun.Source{Paths: []string{dir}}, Seed: 1,
			Jobs: runtime.GOMAXPROCS(0), JSON: true, Reporter: batch.Silent{}})
		if out.Exit != batch.ExitFinding {
			b.Fatalf("Run = exit %d, %v; want 1", out.Exit, out.Problems)
		}
	}
	b.ReportMetric((cpuTime()-before).Seconds()/float64(b.N), "cpu-s/op")
}
