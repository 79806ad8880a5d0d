package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/markers"
	"github.com/mut2cel/mut2cel/translate"
)

// markersFlag adds --markers, the Go packages whose markers declare for
// the CRDs controller-gen generated from them.
func markersFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "markers", nil, "Go packages (go list patterns, as ./api/...) whose mutability markers are added to the CRDs controller-gen generated from them; controller-gen's own rules for +k8s:immutable, ExactlyOneOf and AtMostOneOf are replaced (docs/markers.md); repeatable")
	fs.SetAnnotation("markers", completeAnnotation, []string{completeFree})
}

// markerSets reads the markers of the packages; each problem is a
// diagnostic at its Go file and line. No patterns give a nil result.
func markerSets(patterns []string) (*markers.Result, []batch.Diagnostic) {
	if len(patterns) == 0 {
		return nil, nil
	}
	r, err := markers.Load("", patterns...)
	if err != nil {
		var errs decl.Errors
		if !errors.As(err, &errs) {
			err = fmt.Errorf("--markers: %v", err)
		}
		// r, when not nil, holds the marks read well: translating with
		// them reports their problems in this run too.
		return r, batch.DeclErrorDiagnostics(err, batch.Diagnostic{})
	}
	return r, nil
}

// translateMarked translates doc with tr, the rules controller-gen wrote
// for the +k8s:immutable fields and the ExactlyOneOf and AtMostOneOf
// markers of marked replaced: they are taken out
// before translation, so that mut2cel's rules replace them, and the
// result removes them from doc and warns of each. opts holds marked.Sets
// among its Declarations.
func translateMarked(tr translator, doc map[string]interface{}, opts translate.Options, marked *markers.Result) (*translate.Result, error) {
	if marked == nil {
		return tr(doc, opts)
	}
	without, edits, warnings, err := marked.ControllerGenRules(doc)
	if err != nil {
		return nil, err
	}
	res, err := tr(without, opts)
	if err != nil {
		return nil, err
	}
	res.Edits = append(edits, res.Edits...)
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}
