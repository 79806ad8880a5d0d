package compiler

import (
	"fmt"
	"sort"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// Problem is one reason a document cannot be translated, or, among
// Result.Warnings, something the user should know: the diagnostic every
// phase reports. Its File and Line, when set, are where the declaration
// the problem is about was written outside the CRD: a line of a
// declarations file.
type Problem = diag.Diagnostic

// ProblemType is the kind of a Problem, worded like
// k8s.io/apimachinery/pkg/util/validation/field.ErrorType.
type ProblemType = diag.Type

const (
	Invalid     = diag.Invalid
	Unsupported = diag.Unsupported
	Forbidden   = diag.Forbidden
	Required    = diag.Required
	Duplicate   = diag.Duplicate
	NotFound    = diag.NotFound
	Internal    = diag.Internal
)

// Reasons of a Problem (diag's).
const (
	ReasonInexact         = diag.ReasonInexact
	ReasonCost            = diag.ReasonCost
	ReasonUnescapableName = diag.ReasonUnescapableName
	ReasonIndexComparison = diag.ReasonIndexComparison
	ReasonFormat          = diag.ReasonFormat
)

// NewProblem words a problem; its place is set by the caller.
func NewProblem(t ProblemType, format string, args ...interface{}) Problem {
	return Problem{Type: t, Detail: fmt.Sprintf(format, args...)}
}

// The options a problem's hint names.
const (
	hintAllVersions   = diag.HintAllVersions   // Options.AllServedVersions
	hintBounds        = diag.HintBounds        // Options.NoBounds unset
	hintBoundFloor    = diag.HintBoundFloor    // Options.NodeFloors
	hintBoundCeilings = diag.HintBoundCeilings // Options.MaxLength, MaxItems, MaxProperties
)

// withHint names the option that would change the outcome of p; the
// command words it (translate's messages name no flag).
func withHint(p Problem, h diag.Hint) Problem {
	p.Hint = h
	return p
}

// inSource places p at the line of a declarations file.
func inSource(p Problem, s decl.Source) Problem {
	p.File, p.Line = s.File, s.Line
	return p
}

// Error is a translation failure listing every problem found: those about
// declarations files first, by file and line, then the CRD's by path.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string { return diag.List(e.Problems).Error() }

// SortProblems orders problems about declarations files first, by file
// and line, then the CRD's own by path, and drops repeats (a file's field
// that names a missing node for several extensions).
func SortProblems(problems []Problem) []Problem {
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		switch {
		case (a.File == "") != (b.File == ""):
			return a.File != ""
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return problems[i].Field() < problems[j].Field()
	})
	out := problems[:0]
	for i, p := range problems {
		if i == 0 || p.String() != problems[i-1].String() {
			out = append(out, p)
		}
	}
	return out
}

// internalError reports an edit of mut2cel's own that does not fit the
// document it was made for: a bug, never the user's input.
func internalError(err error) error {
	return &Error{Problems: []Problem{NewProblem(Internal, "%v", err)}}
}

// annotationProblem places p at one of the annotations.
func annotationProblem(name string, p Problem) Problem { return crd.AtAnnotation(name, p) }

// problemAt places p, a problem with declaration d on the schema node at
// the document path node, where the user wrote d (crd.AtDeclaration).
func problemAt(d decl.Declaration, node []interface{}, p Problem) Problem {
	return crd.AtDeclaration(d, node, p)
}

// The wording of the problems with declarations, whichever front end read
// them; where a declaration may stand is worded in decl, for verify too.

func errUnsupportedKEP(v interface{}) Problem {
	return NewProblem(Unsupported, "%s: supported values: %q, %q, %q", quoteValue(v), immutable, addOnly, removeOnly)
}

func errUpdateValue(err error) Problem { return NewProblem(Invalid, "%v", err) }

// errMisspeltKey: key, a schema key, misspells ext (spelling.go).
func errMisspeltKey(key, ext string) Problem {
	return NewProblem(Invalid, "unknown key %q: did you mean %s? (neither mut2cel nor the apiserver reads it, so nothing would enforce the declaration)", key, ext)
}

// errMisspeltAnnotation: name misspells want, one of mut2cel's
// annotations.
func errMisspeltAnnotation(name, want string) Problem {
	return NewProblem(Invalid, "unknown annotation %q: did you mean %s? (mut2cel reads only %s and %s)", name, want, annDeclarations, annGenerated)
}

// errUnknownAnnotation: name is under mut2cel's prefix and is none of its
// annotations.
func errUnknownAnnotation(name string) Problem {
	return NewProblem(Invalid, "unknown annotation %q: mut2cel reads only %s and %s, and the prefix %s is its own: rename or remove it", name, annDeclarations, annGenerated, annotationPrefix)
}

func errOnRoot() Problem { return NewProblem(Forbidden, "%s", decl.OnRoot()) }

func errInMetadata() Problem { return NewProblem(Forbidden, "%s", decl.InMetadata()) }

func errInJunctor() Problem { return NewProblem(Forbidden, "%s", decl.InJunctor()) }

func errNarrowingOnCollection(m mutability, entries string) Problem {
	return NewProblem(Invalid, "%q: %s", m, decl.NarrowingOnCollection(string(m), entries))
}

func errKeysOnNonCollection() Problem { return NewProblem(Forbidden, "%s", decl.KeysOnNonCollection()) }

func errItemConstraintsOnNonCollection(c decl.Constraints) Problem {
	return NewProblem(Forbidden, "%s: %s", c, decl.ItemsOnNonCollection())
}

func errPresenceOnEntry(c decl.Constraints) Problem {
	return NewProblem(Forbidden, "%s: %s", c, decl.PresenceOnEntry())
}

// errNotFound: d names a node the schema of its version (raw) lacks; hint
// says what to do about it in a declarations file. A path a few typing
// mistakes from one the schema has is named.
func errNotFound(d decl.Declaration, raw map[string]interface{}, hint string) Problem {
	var near string
	if p, ok := d.Path.Nearest(raw); ok {
		near = fmt.Sprintf("; did you mean %s?", p)
	}
	if d.Origin.Kind == decl.InFile {
		p := NewProblem(NotFound, "no such node in the schema of CRD %s%s (%s)", d.CRD, near, hint)
		p.Where = fmt.Sprintf("version %s, %s", d.Version, d.Path)
		return inSource(p, d.Origin.Source)
	}
	return annotationProblem(annDeclarations, NewProblem(Invalid, "version %s, %s: no such node in the schema%s (update the path if the field moved, or delete the declaration)", d.Version, d.Path, near))
}

// errTooManyDeclarations: a CRD makes more declarations than
// internal/limits allows.
func errTooManyDeclarations(n int) Problem {
	return NewProblem(Forbidden, "%d declarations, more than the %d one CRD may make (docs/limits.md): declare on a parent instead of on each of its fields (an Immutable object keeps all of them), or split the CRD", n, limits.Declarations).At(crd.VersionsPath())
}

// errDeclaredTooDeep: a declared path has more steps than internal/limits allows.
func errDeclaredTooDeep(steps int) Problem {
	return NewProblem(Forbidden, "declared %d levels deep, more than the %d mut2cel compiles (docs/limits.md): the rules would nest past what CEL parses; declare on a parent", steps, limits.DeclarationDepth)
}

// errConflict: d declares otherwise what have declares already. The
// schema is read first, then the annotation, then the files.
func errConflict(have, d decl.Declaration, node []interface{}) Problem {
	switch {
	case d.Origin.Kind == decl.InAnnotation:
		return NewProblem(Invalid, "%q: the %s annotation declares %q here: keep one of the two", have.Value, annDeclarations, d.Value).At(appendPath(node, d.Ext))
	case have.Origin.Kind == decl.InFile:
		return problemAt(d, node, NewProblem(Invalid, "%s, but %s declares %s for it: keep one of the two", d.Value, have.Origin.Source, have.Value))
	}
	return problemAt(d, node, NewProblem(Invalid, "%s, but CRD %s declares %s here already (in its schema or its %s annotation): keep one of the two", d.Value, d.CRD, have.Value, annDeclarations))
}
