package schemapath

import (
	"github.com/mut2cel/mut2cel/decl"
)

// Kind is what a step steps into.
type Kind int

const (
	Property Kind = iota // a named property of an object
	Items                // any item of a list
	Values               // any value of a map
)

// Step is one step from a schema node to a child node, and from a value
// to a value inside it: a property, any list item, any map value.
type Step struct {
	Kind Kind
	Name string // property name, for Property
}

// Prop is the step into the property name.
func Prop(name string) Step { return Step{Property, name} }

// Path is the steps from the root to a node; the root's is empty.
type Path []Step

// String prints the path in the one notation of every message, the
// annotation and the declarations file (decl.Path): .spec.ports[*].
func (p Path) String() string {
	out := make(decl.Path, len(p))
	for i, s := range p {
		out[i] = decl.Step{Name: s.Name, Entries: s.Kind != Property}
	}
	return out.String()
}

// Child is the path of the node s leads to from p's, in an array of its
// own.
func (p Path) Child(s Step) Path {
	return append(append(make(Path, 0, len(p)+1), p...), s)
}

// OnLine reports whether one path is a prefix of the other: one node is
// the other or above it.
func OnLine(a, b Path) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// OnSchemaLine is OnLine of two paths as String prints them; a text that
// does not read as a path is on the line of itself alone.
func OnSchemaLine(a, b string) bool {
	pa, errA := decl.ParsePath(a)
	pb, errB := decl.ParsePath(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return OnLine(stepsOf(pa), stepsOf(pb))
}

// stepsOf reads a decl.Path as steps; "[*]" is one kind of step for items
// and values alike, as a schema node is a list or an object, never both.
func stepsOf(p decl.Path) Path {
	out := make(Path, len(p))
	for i, s := range p {
		out[i] = Prop(s.Name)
		if s.Entries {
			out[i] = Step{Kind: Items}
		}
	}
	return out
}
