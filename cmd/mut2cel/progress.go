package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/mut2cel/mut2cel/driver/verifyrun"
)

// progress tells a user at a terminal how far a long run is, for every
// command: one line per env.progressInterval, the first one interval
// after the start, so that a run shorter than that prints nothing. Piped
// or redirected, as in CI, stderr carries only the diagnostics and the
// findings, which a log should not bury.
type progress struct {
	w      io.Writer
	prefix string // "mut2cel COMMAND"
	every  time.Duration
	last   time.Time // of the last line, or of the start
}

// isTerminal says whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns nil, which reports nothing, unless stderr is a
// terminal.
func newProgress(e *env, command string) *progress {
	if !e.terminal {
		return nil
	}
	return &progress{w: e.stderr, prefix: "mut2cel " + command, every: e.progressInterval, last: time.Now()}
}

// due says whether a line may be printed now; if so, the next one waits
// a whole interval.
func (p *progress) due() bool {
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return false
	}
	p.last = now
	return true
}

// inputs records that n of total inputs are done; the last one is not
// reported, the command's own output follows.
func (p *progress) inputs(n, total int) {
	if p == nil || n >= total || !p.due() {
		return
	}
	fmt.Fprintf(p.w, "%s: %d/%d inputs\n", p.prefix, n, total)
}

// crds records that n of total CRDs are done, as inputs does.
func (p *progress) crds(n, total int) {
	if p == nil || n >= total || !p.due() {
		return
	}
	fmt.Fprintf(p.w, "%s: %d/%d CRDs\n", p.prefix, n, total)
}

// pairs returns verify's report of the pairs of job judged so far, or nil
// when p is nil. Each job starts a new interval and its own rate; as for
// inputs, the last pair is not reported.
func (p *progress) pairs(job verifyrun.Job) func(verifyrun.Progress) {
	if p == nil {
		return nil
	}
	start := time.Now()
	p.last = start
	return func(v verifyrun.Progress) {
		if v.Done == v.Total || !p.due() {
			return
		}
		rate := float64(v.Done) / time.Since(start).Seconds()
		fmt.Fprintf(p.w, "%s: %s %s: %d/%d pairs, %.0f pairs/s, %d disagreements\n",
			p.prefix, job.Declared.Name(), v.Version, v.Done, v.Total, rate, v.Disagreements)
	}
}
