package translaterun

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mut2cel/mut2cel/driver/batch"
)

// translateReport is what translate -o json prints: one document for CI,
// documented in docs/rewrite.md. Fields are only ever added.
type translateReport struct {
	// Files lists every input in order: whether translation changes it
	// and, with -w, whether it was written.
	Files []fileResult `json:"files"`
	// Errors are the reasons the run failed; nothing is written when
	// there are any.
	Errors []batch.Diagnostic `json:"errors"`
	// Warnings are what the user should know: a bound added (a summary
	// per version), a rule edited by hand, a declarations set for a CRD
	// not given, a document written anew whole (an error with --check).
	Warnings []batch.Diagnostic `json:"warnings"`
	// Bounds lists every bound added, one per node.
	Bounds []batch.Diagnostic `json:"bounds"`
	// Notes count, input by input, the documents that are not CRDs,
	// which pass through, and then say which versions declare only what
	// needs no rule (batch.UnenforcedNote).
	Notes []batch.Diagnostic `json:"notes"`
}

type fileResult struct {
	File    string `json:"file"`
	Changed bool   `json:"changed"`
	Written bool   `json:"written,omitempty"`
}

// reportJSON finishes a run of translate -o json: with -w it writes the
// files when nothing failed, then prints the report. The exit status is
// that of the text form: 2 on errors, 1 when --check finds a file to
// change, else 0.
func reportJSON(results []*batch.Result, errs, warnings, notes []batch.Diagnostic, o Options) batch.Outcome {
	rep := translateReport{Files: []fileResult{}, Errors: errs, Warnings: []batch.Diagnostic{}, Bounds: []batch.Diagnostic{}, Notes: append([]batch.Diagnostic{}, notes...)}
	changed := false
	for _, r := range results {
		rep.Files = append(rep.Files, fileResult{File: r.Input.Name, Changed: r.Changed()})
		changed = changed || r.Changed()
		rep.Warnings = append(rep.Warnings, r.Warnings...)
		if !o.Check { // with --check they are errors
			rep.Warnings = append(rep.Warnings, r.Reformatted...)
		}
		rep.Bounds = append(rep.Bounds, r.Details...)
		rep.Notes = append(rep.Notes, r.Notes...)
	}
	rep.Warnings = append(rep.Warnings, warnings...)
	code := batch.ExitOK
	switch {
	case len(errs) > 0:
		code = batch.ExitError
	case o.Write:
		written, more := batch.WriteInPlace(results)
		if len(more) > 0 {
			rep.Errors, code = more, batch.ExitError
			break
		}
		for i, r := range results {
			rep.Files[i].Written = slices.Contains(written, r.Input.Name)
		}
	case o.Check && changed:
		code = batch.ExitFinding
	}
	if rep.Errors == nil {
		rep.Errors = []batch.Diagnostic{}
	}
	rep.Errors, rep.Warnings = batch.WithFlagHints(rep.Errors), batch.WithFlagHints(rep.Warnings)
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return batch.Outcome{Exit: batch.ExitError, Summary: fmt.Sprintf("mut2cel translate: %v", err)}
	}
	return batch.Outcome{Exit: code, Stdout: append(data, '\n')}
}
