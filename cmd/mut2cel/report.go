package main

import (
	"fmt"

	"github.com/mut2cel/mut2cel/driver/batch"
)

// reporter prints what a run says as it goes: progress where standard
// error is a terminal, notes and warnings, and details (-v).
type reporter struct {
	e        *env
	progress *progress
}

func newReporter(e *env, command string) *reporter {
	return &reporter{e: e, progress: newProgress(e, command)}
}

func (r *reporter) Progress(done, total int)        { r.progress.inputs(done, total) }
func (r *reporter) Say(diags []batch.Diagnostic)    { printDiags(r.e, diags) }
func (r *reporter) SayAll(diags []batch.Diagnostic) { printAll(r.e, diags) }

// finish prints what a run leaves, its output on standard output and
// its problems and last line on standard error, and returns its exit
// status.
func finish(e *env, out batch.Outcome) int {
	printDiags(e, out.Problems)
	if len(out.Stdout) > 0 {
		e.stdout.Write(out.Stdout)
	}
	if out.Summary != "" {
		fmt.Fprintln(e.stderr, out.Summary)
	}
	return int(out.Exit)
}
