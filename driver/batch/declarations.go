package batch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// DeclarationSets are the declarations files of a run (--declarations),
// and the names of the CRDs its inputs hold, so that a set naming no
// input CRD is reported rather than ignored.
type DeclarationSets struct {
	Sets []decl.Set
	seen map[string]bool
}

// ReadDeclarations reads the declarations files at paths; each problem is
// a diagnostic at its file and line.
func ReadDeclarations(paths []string) (*DeclarationSets, []Diagnostic) {
	sets := &DeclarationSets{seen: map[string]bool{}}
	var diags []Diagnostic
	b := newBudget()
	for _, path := range paths {
		if b.spent {
			break
		}
		data, err := b.readFile(path)
		if err != nil {
			diags = append(diags, Diagnostic{Detail: fmt.Sprintf("--declarations: %v", err)})
			continue
		}
		found, err := decl.ParseFile(path, data)
		diags = append(diags, DeclErrorDiagnostics(err, Diagnostic{File: path})...)
		sets.Sets = append(sets.Sets, found...)
	}
	return sets, diags
}

// DeclErrorDiagnostics gives a diagnostic for each problem of a front end
// of the declaration model at its source, decl.Errors being one problem a
// line; any other error is one diagnostic, at, with the error as detail.
func DeclErrorDiagnostics(err error, at Diagnostic) []Diagnostic {
	var errs decl.Errors
	switch {
	case errors.As(err, &errs):
		diags := make([]Diagnostic, len(errs))
		for i, e := range errs {
			diags[i] = e.Diagnostic()
		}
		return diags
	case err != nil:
		at.Detail = err.Error()
		return []Diagnostic{at}
	}
	return nil
}

// See records the name of an input CRD; a nil s records nothing.
func (s *DeclarationSets) See(doc map[string]interface{}) {
	if s == nil {
		return
	}
	if name := (InputCRD{Value: doc}).Name(); name != "" {
		s.seen[name] = true
	}
}

// Unused reports the sets whose CRD no input holds. A file may declare
// for several CRDs and be given with some of them, so such a set is a
// warning, one line a file however many of its sets it concerns; when no
// set names an input CRD at all, nothing was declared, and each set is an
// error.
func (s *DeclarationSets) Unused() (warnings, errs []Diagnostic) {
	used := false
	for _, set := range s.Sets {
		used = used || s.seen[set.CRD]
	}
	var unused []decl.Set
	for _, set := range s.Sets {
		if !s.seen[set.CRD] {
			unused = append(unused, set)
		}
	}
	if !used {
		for _, set := range unused {
			errs = append(errs, unusedDiagnostic(set))
		}
		return nil, errs
	}
	for len(unused) > 0 {
		file := unused[0].Source.File
		var here, rest []decl.Set
		for _, set := range unused {
			if set.Source.File == file {
				here = append(here, set)
			} else {
				rest = append(rest, set)
			}
		}
		warnings = append(warnings, unusedWarning(here))
		unused = rest
	}
	return warnings, nil
}

func unusedDiagnostic(set decl.Set) Diagnostic {
	return Diagnostic{File: set.Source.File, Line: set.Source.Line,
		Detail: fmt.Sprintf("crd %s: no CRD of this name in the inputs", set.CRD)}
}

// unusedWarning is the warning for the unused sets of one file, at the
// first of them.
func unusedWarning(sets []decl.Set) Diagnostic {
	d := unusedDiagnostic(sets[0])
	d.Severity = diag.Warning
	if len(sets) == 1 {
		return d
	}
	lines := make([]string, len(sets))
	for i, set := range sets {
		lines[i] = strconv.Itoa(set.Source.Line)
	}
	d.Detail = fmt.Sprintf("%d documents declare for CRDs not in the inputs (lines %s)", len(sets), strings.Join(lines, ", "))
	return d
}
