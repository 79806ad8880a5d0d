package reference

import (
	"strings"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// Declaration is one declaration: an extension with its value on one
// schema node. Each constraint of an x-kubernetes-update list, and each
// union of an x-kubernetes-unions list, is a Declaration of its own,
// because each is a rule of its own (semantics.md 9.2) and is exercised
// and violated on its own.
type Declaration struct {
	Path      string // schema path of the node, as in Violation.Declaration
	Extension string // x-kubernetes-mutability, -key-mutability, -update or -unions
	// Value is Immutable, AddOnly or RemoveOnly; for x-kubernetes-update
	// one constraint, such as NoModify; for x-kubernetes-unions one union,
	// named as unionName does, such as AtMostOne(a, b).
	Value string
}

// Declarations lists every declaration of the schema, in walk order, the
// mutability of a node before its key mutability, then its update
// constraints in updateConstraints order.
func (c *Checker) Declarations() []Declaration {
	var out []Declaration
	for _, path := range c.DeclaredPaths() {
		out = append(out, c.nodeDeclarations(c.root.at(path))...)
	}
	return out
}

// at follows a schema path that exists.
func (n *node) at(path schemapath.Path) *node {
	for _, st := range path {
		switch st.Kind {
		case schemapath.Property:
			n = n.property(st.Name)
		case schemapath.Items:
			n = n.items
		case schemapath.Values:
			n = n.values
		}
	}
	return n
}

// DeclarationOf names the declaration of decls a violation breaks. A violation of
// an update constraint or a union names it at the start of its detail
// (details.go).
// Otherwise a keys violation reported at a node with a key mutability is of
// that extension; else it is of an AddOnly or RemoveOnly on items or
// additionalProperties (semantics.md 3.3), which cannot sit on a collection
// itself (1.1.3), so the two never meet on one node.
func DeclarationOf(v Violation, decls []Declaration) Declaration {
	for _, d := range decls {
		if d.Path == v.Declaration && (d.Extension == extUpdate || d.Extension == extUnions) && strings.HasPrefix(v.Detail, d.Value+":") {
			return d
		}
	}
	ext := extMutability
	if v.Kind == kindKeys {
		for _, d := range decls {
			if d.Path == v.Declaration && d.Extension == extKeyMutability {
				return d
			}
		}
	}
	for _, d := range decls {
		if d.Path == v.Declaration && d.Extension == ext {
			return d
		}
	}
	return Declaration{Path: v.Declaration, Extension: ext}
}

// CheckExercised is Check that also lists the declarations the update
// exercised: those of which the checker applied a rule, broken or not, to
// a position of the pair. The value rule applies where the position exists
// before and after, the presence rule where its scope does (semantics.md
// 3.1, 3.2), the key rule where the collection's scope does (4).
//
// It also lists the constraints the update breaks (constraints.go), each
// once, in the order the walk met them.
func (c *Checker) CheckExercised(old, new map[string]interface{}) ([]Violation, []Declaration, []Constraint) {
	w := c.update(old, new, true)
	return w.out, w.exercised, w.broken
}

// exercise records that a rule of the declaration ext of n was applied.
func (w *walker) exercise(n *node, ext, value string) {
	if !w.track {
		return
	}
	d := Declaration{Path: n.schemaPath, Extension: ext, Value: value}
	for _, seen := range w.exercised {
		if seen == d {
			return
		}
	}
	w.exercised = append(w.exercised, d)
}
