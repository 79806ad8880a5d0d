package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/batch"
)

// declarationsFlag adds --declarations, the declarations files for CRDs
// the user does not own, to a command that reads CRDs.
func declarationsFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "declarations", nil, "declarations file (kind Declarations) whose declarations are added to the CRDs it names, for CRDs you do not own; repeatable")
	fs.SetAnnotation("declarations", completeAnnotation, []string{completeFiles})
}

// declarationFiles reads the declarations files; each problem is a
// diagnostic at its file and line.
func declarationFiles(paths []string) (*declSets, []batch.Diagnostic) {
	sets := &declSets{seen: map[string]bool{}}
	var diags []batch.Diagnostic
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, batch.Diagnostic{Detail: fmt.Sprintf("--declarations: %v", err)})
			continue
		}
		found, err := decl.ParseFile(path, data)
		diags = append(diags, declErrorDiags(err, batch.Diagnostic{File: path})...)
		sets.all = append(sets.all, found...)
	}
	return sets, diags
}

// declErrorDiags gives a diagnostic for each problem of a front end of
// the declaration model at its source, decl.Errors being one problem a
// line; any other error is one diagnostic, at, with the error as detail.
func declErrorDiags(err error, at batch.Diagnostic) []batch.Diagnostic {
	var errs decl.Errors
	switch {
	case errors.As(err, &errs):
		diags := make([]batch.Diagnostic, len(errs))
		for i, e := range errs {
			diags[i] = batch.Diagnostic{File: e.Source.File, Line: e.Source.Line, Detail: e.Detail}
		}
		return diags
	case err != nil:
		at.Detail = err.Error()
		return []batch.Diagnostic{at}
	}
	return nil
}

// declSets are the sets of a run and the CRD names the inputs hold, so
// that a set naming no input CRD is reported rather than ignored.
type declSets struct {
	all  []decl.Set
	seen map[string]bool
}

// see records the name of an input CRD; a nil s records nothing.
func (s *declSets) see(doc map[string]interface{}) {
	if s == nil {
		return
	}
	if name, ok := nestedString(doc, "metadata", "name"); ok {
		s.seen[name] = true
	}
}

// unused reports the sets whose CRD no input holds. A file may declare
// for several CRDs and be given with some of them, so such a set is a
// warning; when no set names an input CRD at all, nothing was declared,
// which is an error.
func (s *declSets) unused() (warnings, errs []batch.Diagnostic) {
	used := false
	for _, set := range s.all {
		used = used || s.seen[set.CRD]
	}
	var diags []batch.Diagnostic
	for _, set := range s.all {
		if !s.seen[set.CRD] {
			diags = append(diags, batch.Diagnostic{File: set.Source.File, Line: set.Source.Line, Warning: used,
				Detail: fmt.Sprintf("crd %s: no CRD of this name in the inputs", set.CRD)})
		}
	}
	if used {
		return diags, nil
	}
	return nil, diags
}
