package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mut2cel/mut2cel/internal/verifyrun"
	"github.com/mut2cel/mut2cel/verify"
	"golang.org/x/term"
)

// inputProgress tells a user at a terminal how far a run over many inputs
// is: one line per progressInterval, the first after one interval, so
// that a run shorter than that prints nothing. Piped or redirected, stderr
// carries only the diagnostics, as before.
type inputProgress struct {
	w      io.Writer
	prefix string
	total  int
	last   time.Time
}

// progressInterval is the time between progress lines; tests set it to
// zero to print every report.
var progressInterval = time.Second

// isTerminal says whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newInputProgress returns nil, which reports nothing, unless stderr is a
// terminal.
func newInputProgress(e *env, prefix string, total int) *inputProgress {
	if !isTerminal(e.stderr) {
		return nil
	}
	return &inputProgress{w: e.stderr, prefix: prefix, total: total, last: time.Now()}
}

// done records that n inputs are done; the last one is not reported, the
// command's own output follows.
func (p *inputProgress) done(n int) {
	if p == nil || n >= p.total || time.Since(p.last) < progressInterval {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "%s: %d/%d inputs\n", p.prefix, n, p.total)
}

// progressPrinter reports at most once per progressInterval.
func progressPrinter(e *env, job verifyrun.Job) func(verify.Progress) {
	start, last := time.Now(), time.Now()
	return func(p verify.Progress) {
		now := time.Now()
		if now.Sub(last) < progressInterval || p.Done == p.Total {
			return
		}
		last = now
		rate := float64(p.Done) / now.Sub(start).Seconds()
		fmt.Fprintf(e.stderr, "mut2cel verify: %s %s: %d/%d pairs, %.0f pairs/s, %d disagreements\n",
			job.Declared.Name(), p.Version, p.Done, p.Total, rate, p.Disagreements)
	}
}
