package batch

import (
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// formatsFlagWords replace decl.RunWideFormats in refusals: the
// library names the option, the commands its flag.
var formatsFlagWords = strings.NewReplacer(decl.RunWideFormats, "--compare-formats-as-values for the whole run")

// flagHints word, for each option a library's diagnostic names, what the
// commands' flag for it does: the libraries speak of options and name no
// flag (internal/layers' TestLibraryMessagesNameNoFlag), and the commands add
// these words at the end of the detail. Every command that sets the
// option has the flag.
var flagHints = map[diag.Hint]string{
	diag.HintAllVersions:   ", or use --all-versions to apply declarations to every served version where the path exists",
	diag.HintBounds:        ", or let mut2cel add it by omitting --no-bounds",
	diag.HintBoundCeilings: " (the --max-length, --max-items or --max-properties given may be too large)",
	diag.HintBoundFloor:    " (--bound-floor PATH:KEYWORD=N)",
	diag.HintKubeVersion:   "; or target Kubernetes 1.33 with --kube-version 1.33",
	diag.HintIndexBound:    " (--bound-floor PATH:maxItems=N); or target Kubernetes 1.33 with --kube-version 1.33",
}

// WithFlagHints returns diags with the words for each one's hint added to
// its detail, and the run-wide options they name by their role worded as
// flags, for the text and JSON output alike.
func WithFlagHints(diags []Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(diags))
	for i, d := range diags {
		words, ok := flagHints[d.Hint]
		switch {
		case !ok:
		case (d.Hint == diag.HintKubeVersion || d.Hint == diag.HintIndexBound) && len(d.Reasons) > 0:
			// The version requirement is the first of several
			// reasons (translate puts it first): the words go with it.
			d.Reasons = append([]string{d.Reasons[0] + words}, d.Reasons[1:]...)
			d.Hint = ""
		default:
			d.Detail, d.Hint = d.Detail+words, ""
		}
		d.Detail = formatsFlagWords.Replace(d.Detail)
		if len(d.Reasons) > 0 {
			reasons := make([]string, len(d.Reasons))
			for j, r := range d.Reasons {
				reasons[j] = formatsFlagWords.Replace(r)
			}
			d.Reasons = reasons
		}
		out[i] = d
	}
	return out
}
