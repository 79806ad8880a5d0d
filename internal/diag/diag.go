package diag

import (
	"fmt"
	"strings"
)

// The reasons of a refusal (Diagnostic.Reason).
const (
	// ReasonInexact: the apiserver's CEL cannot compare the values exactly.
	ReasonInexact = "Inexact"
	// ReasonCost: the generated rules do not fit the CEL cost limits.
	ReasonCost = "Cost"
	// ReasonUnescapableName: a property name has no CEL escape.
	ReasonUnescapableName = "UnescapableName"
	// ReasonIndexComparison: comparing list items index by index needs
	// Kubernetes 1.33, or maxItems.
	ReasonIndexComparison = "IndexComparison"
	// ReasonFormat: CEL reads a formatted string as another value.
	ReasonFormat = "Format"
)

// Diagnostic is one reason a run fails or, as a warning, something the
// user should know. Its text is
//
//	FILE:LINE:COLUMN: document N (Kind/name): FIELD: warning: WHERE: TYPE: DETAIL
//
// leaving out the parts that are unknown.
type Diagnostic struct {
	// File is the file the problem is in: a manifest, a declarations
	// file, a Go source file; empty when not about one file.
	File string
	// Line and Column are from 1; 0 when unknown.
	Line, Column int
	// Doc is the number of the document in File, from 1; 0 when not
	// about one document.
	Doc int
	// Object is the document's Kind/name, or what it has of it.
	Object string
	// Path leads from the document root to the offending node, like
	// edit.Edit.Path.
	Path []interface{}
	// RenderedPath, when set, is the place to print instead of Path: the
	// rendered path of a problem the apiserver's validation found (it
	// reports rendered paths only), or a place a path cannot say, as
	// "version v1 .spec.a".
	RenderedPath string
	// Where names the declaration the problem is about when the place
	// alone does not: "version v1, .spec.a: x-kubernetes-mutability".
	Where string
	// Type classifies the problem as the apiserver classifies field
	// errors; empty for warnings and for problems that are not about a
	// field.
	Type Type
	// Reason, when set, names a refusal docs/semantics.md allows: a
	// declaration no rule can check exactly, or rules over the cost
	// limits.
	Reason string
	// Detail says what is wrong and what to do about it.
	Detail string
	// Reasons, when set, are the several reasons of one refusal, each a
	// sentence that stands alone, and Detail introduces them: every node
	// that keeps a declaration from an exact rule, every rule over the
	// cost limits. They print one a line below the message.
	Reasons []string
	// hidden are the Reasons FirstReasons left out of the text, and
	// hiddenHint says how to see them.
	hidden     []string
	hiddenHint string
	// Hint, when set, names the option of the library that would change
	// the outcome (see the Hint constants); a command adds its own words
	// for it, as the flag that sets the option.
	Hint Hint
	// Severity says whether the problem fails the run.
	Severity Severity
}

// Type is the kind of a Diagnostic, worded like
// k8s.io/apimachinery/pkg/util/validation/field.ErrorType.
type Type string

const (
	Invalid     Type = "Invalid value"
	Unsupported Type = "Unsupported value"
	Forbidden   Type = "Forbidden"
	Required    Type = "Required value"
	Duplicate   Type = "Duplicate value"
	NotFound    Type = "Not found"
	Internal    Type = "Internal error"
)

// Severity says whether a Diagnostic fails the run.
type Severity int

const (
	// Error fails the run; the zero value.
	Error Severity = iota
	// Warning is something the user should know that does not fail the
	// run; the text says "warning: " before the message.
	Warning
)

// Field renders the place of the problem in its document as the
// apiserver prints schema paths, e.g.
// spec.versions[0].schema.openAPIV3Schema.properties[spec]; empty when
// neither Path nor RenderedPath is set.
func (d Diagnostic) Field() string {
	switch {
	case d.RenderedPath != "":
		return d.RenderedPath
	case len(d.Path) == 0:
		return ""
	}
	return RenderPath(d.Path)
}

// Message is the problem without its place: where, type and detail.
func (d Diagnostic) Message() string {
	var parts []string
	for _, s := range []string{d.Where, string(d.Type), d.Detail} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

// IsWarning reports whether d does not fail the run.
func (d Diagnostic) IsWarning() bool { return d.Severity == Warning }

// String is the text of d. Errors hold it as it is; a command prints it
// Wrapped.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
			if d.Column > 0 {
				fmt.Fprintf(&b, ":%d", d.Column)
			}
		}
		b.WriteString(": ")
	}
	if d.Doc > 0 {
		fmt.Fprintf(&b, "document %d", d.Doc)
		if d.Object != "" {
			fmt.Fprintf(&b, " (%s)", d.Object)
		}
		b.WriteString(": ")
	}
	if f := d.Field(); f != "" {
		b.WriteString(f + ": ")
	}
	if d.IsWarning() {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Message())
	for _, r := range d.Reasons {
		b.WriteString("\n  - " + r)
	}
	if len(d.hidden) > 0 {
		fmt.Fprintf(&b, "\n  and %d more", len(d.hidden))
		if d.hiddenHint != "" {
			b.WriteString(" " + d.hiddenHint)
		}
	}
	return b.String()
}

// FirstReasons returns d whose text shows at most n of its Reasons,
// followed by a line that counts the others and ends with hint, which
// says how to see them. Its JSON keeps every reason.
func (d Diagnostic) FirstReasons(n int, hint string) Diagnostic {
	if len(d.Reasons) <= n {
		return d
	}
	d.hidden, d.hiddenHint = d.Reasons[n:len(d.Reasons):len(d.Reasons)], hint
	d.Reasons = d.Reasons[:n:n]
	return d
}

// allReasons are the Reasons, those FirstReasons left out of the text
// included.
func (d Diagnostic) allReasons() []string {
	if len(d.hidden) == 0 {
		return d.Reasons
	}
	return append(append([]string{}, d.Reasons...), d.hidden...)
}

// Wrapped is the text of d as the commands print it for a reader: long
// paths and words shortened (Shorten), and the lines longer than a
// terminal shows at once broken. String and the JSON keep them whole.
func (d Diagnostic) Wrapped() string { return wrap(Shorten(d.String())) }

// Hint names an option of the library that would change the outcome of
// a problem; a command words it as its flag. The values are the names of
// translate.Options fields, so that a library caller finds them too.
type Hint string

const (
	// HintAllVersions: apply each served version's declarations to every
	// served version where the path exists.
	HintAllVersions Hint = "AllServedVersions"
	// HintBounds: let mut2cel add the bounds the rules need (NoBounds
	// unset).
	HintBounds Hint = "NoBounds"
	// HintBoundCeilings: the values of the bounds mut2cel adds may be too
	// large.
	HintBoundCeilings Hint = "MaxLength"
	// HintBoundFloor: the smallest bound mut2cel adds on one node.
	HintBoundFloor Hint = "NodeFloors"
	// HintKubeVersion: the oldest Kubernetes version the rules must work
	// on.
	HintKubeVersion Hint = "KubeVersion"
	// HintIndexBound: a list compared index by index below Kubernetes
	// 1.33 needs maxItems, which a per-node floor gives; or a newer
	// target compares without it.
	HintIndexBound Hint = "NodeFloors or KubeVersion"
)

// At returns d placed at a document path.
func (d Diagnostic) At(path []interface{}) Diagnostic {
	d.Path = path
	return d
}
