package decl

import (
	"fmt"
	"strings"
)

// Declaration is one declared extension on one schema node of one version
// of a CRD: the unit every front end produces (the schema, the
// mut2cel.io/declarations annotation, declarations files, Go markers) and
// the rule compiler reads.
type Declaration struct {
	CRD     string
	Version string
	Path    Path
	Ext     string // one of Extensions
	// Value is the value in the form the annotation keeps (Value): a KEP
	// value as written, the update constraints as Constraints.String.
	Value  string
	Origin Origin
}

// Origin is where a declaration was written, so that a problem with it is
// reported where the user can fix it.
type Origin struct {
	Kind OriginKind
	// Source is the file and line, for InFile.
	Source Source
	// From is the version a Copied declaration was copied from.
	From string
}

// OriginKind says which front end read a declaration.
type OriginKind int

const (
	// InSchema: written in the version schema, on the node itself.
	InSchema OriginKind = iota
	// InAnnotation: kept in the mut2cel.io/declarations annotation.
	InAnnotation
	// InFile: a declarations file or a Go marker, at Origin.Source.
	InFile
	// Copied from the served version Origin.From, to a version that
	// serves the same path (translate's --all-versions).
	Copied
)

// Where names the declaration the way messages about it begin:
// "version v1, .spec.a: x-kubernetes-mutability".
func (d Declaration) Where() string {
	return fmt.Sprintf("version %s, %s: %s", d.Version, d.Path, d.Ext)
}

// ParseConstraints reads the canonical form Constraints.String writes,
// "[NoUnset, NoModify]".
func ParseConstraints(s string) (Constraints, error) {
	inner, ok := strings.CutPrefix(s, "[")
	if inner, ok2 := strings.CutSuffix(inner, "]"); ok && ok2 {
		var list []interface{}
		for _, name := range strings.Split(inner, ",") {
			if name = strings.TrimSpace(name); name != "" || inner != "" {
				list = append(list, name)
			}
		}
		return ParseUpdate(list)
	}
	return 0, fmt.Errorf("must be a list of constraints, as in [NoUnset, NoModify], not %q", s)
}
