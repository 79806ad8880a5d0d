package compiler

import (
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// A key that misspells one of mut2cel's is an error wherever it is read:
// the apiserver drops schema keys it does not know (or, under strict
// field validation, refuses the CRD), and mut2cel reads only its own, so
// a declaration under a misspelt key (or an annotation under a misspelt
// name) would vanish without a word, and translate and verify would pass
// having done nothing with it.

// CheckSpelling reports, as an *Error, every key of c's version schemas
// that misspells one of the three extensions (decl.Misspelling), and
// every annotation named like mut2cel's that is not one of them. Compile
// reports these with its other problems; a reader that does not compile
// (verify against published rules) calls this first. Nil when there is
// none.
func CheckSpelling(c *crd.CRD) error {
	problems := misspeltAnnotations(c.Annotations)
	for _, v := range c.Versions {
		r := &schemaReader{root: v.Root()}
		v.WalkAll(r.readNode)
		problems = append(problems, r.typos...)
	}
	if len(problems) == 0 {
		return nil
	}
	return &Error{Problems: SortProblems(problems)}
}

// misspeltKeys are the problems of the keys of one schema node, at the
// document path dp, that misspell an extension.
func misspeltKeys(raw map[string]interface{}, dp []interface{}) []Problem {
	var problems []Problem
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		if ext, ok := decl.Misspelling(key); ok {
			problems = append(problems, errMisspeltKey(key, ext).At(appendPath(dp, key)))
		}
	}
	return problems
}

// ownAnnotations are the annotations mut2cel reads and writes.
var ownAnnotations = decl.Annotations

// annotationPrefix is the prefix of mut2cel's annotations: any other
// annotation under it is a mistake.
const annotationPrefix = "mut2cel.io/"

// misspeltAnnotations are the problems of the annotations that are named
// like mut2cel's, close to one of them or under its prefix, and are not
// one of them.
func misspeltAnnotations(annotations map[string]interface{}) []Problem {
	var problems []Problem
	for _, name := range slices.Sorted(maps.Keys(annotations)) {
		if isOwnAnnotation(name) {
			continue
		}
		want, near := diag.Closest(name, ownAnnotations)
		switch {
		case near:
			problems = append(problems, annotationProblem(name, errMisspeltAnnotation(name, want)))
		case strings.HasPrefix(strings.ToLower(name), annotationPrefix):
			problems = append(problems, annotationProblem(name, errUnknownAnnotation(name)))
		}
	}
	return problems
}

func isOwnAnnotation(name string) bool {
	for _, own := range ownAnnotations {
		if name == own {
			return true
		}
	}
	return false
}
