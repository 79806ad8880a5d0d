package decl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// Source is where a declaration was written.
type Source struct {
	File string
	Line int
}

func (s Source) String() string {
	if s.Line == 0 {
		return s.File
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Error is one problem of a declarations file, or of a declaration read
// from one, at its source.
type Error struct {
	Source Source
	Detail string
}

func (e *Error) Error() string { return e.Source.String() + ": " + e.Detail }

// Diagnostic is e as every phase reports problems.
func (e *Error) Diagnostic() diag.Diagnostic {
	return diag.Diagnostic{File: e.Source.File, Line: e.Source.Line, Detail: e.Detail}
}

// Errors is every problem found, sorted by file and line.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Sort orders es by file, then line, then text.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Source.File != b.Source.File {
			return a.Source.File < b.Source.File
		}
		if a.Source.Line != b.Source.Line {
			return a.Source.Line < b.Source.Line
		}
		return a.Detail < b.Detail
	})
}
