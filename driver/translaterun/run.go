package translaterun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/internal/diff"
)

// Options are a run of translate.
type Options struct {
	inputs.Run
	// Write rewrites the files in place; Check lists those translation
	// would change, Diff shows how; JSON reports on Write or Check in
	// one JSON document.
	Write, Check, Diff, JSON bool
	// Verbose says every detail, and every reason of a refusal.
	Verbose bool
}

// Run translates the inputs and does with the translations what o asks.
func Run(o Options) batch.Outcome {
	if o.JSON {
		o.Reporter = batch.ProgressOnly(o.Reporter)
	}
	loop := &batch.Loop{Paths: o.Paths, Stdin: o.Stdin, Reporter: o.Reporter, Problems: o.Problems}
	inputs := loop.Inputs()
	tr := o.Inputs.Translate(o.Translator)
	var results []*batch.Result
	for i, input := range inputs {
		r := batch.Translate(input, tr)
		results = append(results, r)
		loop.Problems = append(loop.Problems, r.Diags...)
		if o.Check {
			loop.Problems = append(loop.Problems, checkErrors(r.Reformatted)...)
		}
		loop.Done(i, len(inputs), input, r.File)
		o.Reporter.Say(r.Warnings)
		if !o.Check {
			o.Reporter.Say(r.Reformatted)
		}
		if o.Verbose {
			o.Reporter.SayAll(r.Details)
		}
	}
	unusedWarnings, unusedErrs := o.Inputs.Unused()
	loop.Problems = append(loop.Problems, unusedErrs...)
	loop.NoCRD()
	if len(loop.Problems) == 0 && declaring(results) == 0 {
		// Nothing declared: the output would be the input, and --check
		// would pass on CRDs whose declarations were lost.
		loop.Problems = []batch.Diagnostic{o.Inputs.NoDeclarations(o.Paths)}
	}
	if o.JSON {
		return reportJSON(results, loop.Problems, unusedWarnings, loop.Census().Notes(), o)
	}
	o.Reporter.Say(unusedWarnings)
	if len(loop.Problems) > 0 {
		return batch.Failed(batch.FirstReasons(loop.Problems, o.Verbose))
	}
	return output(results, o)
}

// output is what the run does with translations that all succeeded:
// written in place, checked or shown as diffs, or printed.
func output(results []*batch.Result, o Options) batch.Outcome {
	switch {
	case o.Write:
		return writeInPlace(results)
	case o.Check || o.Diff:
		return changes(results, o)
	}
	parts := make([][]byte, len(results))
	for i, r := range results {
		parts[i] = r.Output()
	}
	return batch.Outcome{Stdout: batch.Join(parts)}
}

// checkErrors makes the warnings that a document would be reformatted
// errors of --check: a check must not pass on a file that -w would
// rewrite beyond its edits.
func checkErrors(reformatted []batch.Diagnostic) []batch.Diagnostic {
	var errs []batch.Diagnostic
	for _, d := range reformatted {
		d.Severity = diag.Error
		d.Detail = "--check: " + d.Detail
		errs = append(errs, d)
	}
	return errs
}

// declaring counts the CRDs the translations worked on.
func declaring(results []*batch.Result) int {
	n := 0
	for _, r := range results {
		n += r.Declaring
	}
	return n
}

func writeInPlace(results []*batch.Result) batch.Outcome {
	written, diags := batch.WriteInPlace(results)
	if len(diags) > 0 {
		return batch.Failed(diags)
	}
	return batch.Outcome{Summary: "mut2cel translate: " + rewriteSummary(len(written), len(results))}
}

// rewriteSummary is the one line -w ends with: a run that printed nothing
// left the user to guess whether any file was touched.
func rewriteSummary(written, inputs int) string {
	unchanged := inputs - written
	switch {
	case written == 0:
		return fmt.Sprintf("no file changed (%s already up to date)", batch.Counted(unchanged, "file"))
	case unchanged == 0:
		return fmt.Sprintf("rewrote %s", batch.Counted(written, "file"))
	}
	return fmt.Sprintf("rewrote %s, %d already up to date", batch.Counted(written, "file"), unchanged)
}

// changes lists (--check) and shows (--diff) the files that would
// change, in input order, like gofmt -l -d; a file that would change is
// a finding, as for diff and kubectl diff.
func changes(results []*batch.Result, o Options) batch.Outcome {
	var out batch.Outcome
	for _, r := range results {
		if !r.Changed() {
			continue
		}
		out.Exit = batch.ExitFinding
		if o.Check {
			out.Stdout = append(out.Stdout, r.Input.Name+"\n"...)
		}
		if o.Diff {
			out.Stdout = append(out.Stdout, diff.Unified(r.Input.Name, r.Input.Name, r.Input.Data, r.Output())...)
		}
	}
	return out
}
