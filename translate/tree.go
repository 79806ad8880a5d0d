package translate

import (
	"sort"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// node is a structural schema node with what mut2cel needs to know about its
// place: its declarations, its parent and how the apiserver pairs its values
// with old values.
type node struct {
	s      *schema.Structural
	parent *node
	path   decl.Path // from the schema root
	decl   declaration
	// declared holds, by extension, the declaration behind each part of
	// decl: where it was written, for problems and for the edits that
	// remove it from the schema.
	declared map[string]decl.Declaration

	props     []*node // sorted by name
	items     *node
	values    *node // additionalProperties
	propIndex map[string]*node

	rules []edit.Rule // generated rules hosted here, in generation order
}

// buildTree builds the tree of a structural schema.
func buildTree(s *schema.Structural) *node {
	return buildNode(s, nil, nil)
}

func buildNode(s *schema.Structural, parent *node, path decl.Path) *node {
	n := &node{s: s, parent: parent, path: path}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) > 0 {
		n.propIndex = map[string]*node{}
	}
	for _, name := range names {
		prop := s.Properties[name]
		c := buildNode(&prop, n, path.Child(decl.Step{Name: name}))
		n.props = append(n.props, c)
		n.propIndex[name] = c
	}
	if s.Items != nil {
		n.items = buildNode(s.Items, n, path.Child(decl.Step{Entries: true}))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		n.values = buildNode(s.AdditionalProperties.Structural, n, path.Child(decl.Step{Entries: true}))
	}
	return n
}

// walk calls f on n and every node below it, parents first, properties in
// name order, then items, then map values.
func (n *node) walk(f func(*node)) {
	f(n)
	for _, c := range n.props {
		c.walk(f)
	}
	if n.items != nil {
		n.items.walk(f)
	}
	if n.values != nil {
		n.values.walk(f)
	}
}

func (n *node) isRoot() bool { return n.parent == nil }

// addDeclaration takes one checked declaration of n.
func (n *node) addDeclaration(d decl.Declaration) {
	if n.declared == nil {
		n.declared = map[string]decl.Declaration{}
	}
	n.declared[d.Ext] = d
	n.decl.add(d)
}

// find returns the node at p below n, or nil.
func (n *node) find(p decl.Path) *node {
	c := n
	for _, st := range p {
		switch {
		case c == nil:
			return nil
		case !st.Entries:
			c = c.propIndex[st.Name]
		case c.items != nil:
			c = c.items
		default:
			c = c.values
		}
	}
	return c
}

// name is the property name of a property node.
func (n *node) name() string { return n.path[len(n.path)-1].Name }

func (n *node) isProperty() bool { return !n.isRoot() && !n.path.IsEntry() }

// isEntry reports whether n is a list item or map value schema.
func (n *node) isEntry() bool { return n.path.IsEntry() }

// isItems reports whether n is the items schema of a list.
func (n *node) isItems() bool { return n.isEntry() && n.parent.items == n }

// isValue reports whether n is the additionalProperties schema of a map.
func (n *node) isValue() bool { return n.isEntry() && n.parent.values == n }

// docPath is the document path of n below root, the document path of the
// schema root.
func (n *node) docPath(root []interface{}) []interface{} {
	if n.isRoot() {
		return append([]interface{}{}, root...)
	}
	switch p := n.parent.docPath(root); {
	case n.isItems():
		return append(p, "items")
	case n.isValue():
		return append(p, "additionalProperties")
	default:
		return append(p, "properties", n.name())
	}
}

func (n *node) listType() string {
	if n.s.Type != "array" {
		return ""
	}
	if n.s.XListType == nil || *n.s.XListType == "" {
		return "atomic"
	}
	return *n.s.XListType
}

func (n *node) isMap() bool { return n.values != nil }

func (n *node) isList() bool { return n.s.Type == "array" }

// listMapKeys are the key properties of a list-type map list.
func (n *node) listMapKeys() []string { return n.s.XListMapKeys }

// scope is the nearest entry at or above n, or the root (semantics.md 2.2).
func (n *node) scope() *node {
	for c := n; ; c = c.parent {
		if c.isRoot() || c.isEntry() {
			return c
		}
	}
}

// correlated reports whether the apiserver pairs values of n with old values,
// so that a rule on n may use oldSelf: through object properties, map values
// and list-type map items, but not through items of atomic lists or sets,
// nor through the items of a list-map keyed by a number (numberKeyed).
func (n *node) correlated() bool {
	for c := n; !c.isRoot(); c = c.parent {
		if c.isItems() && (c.parent.listType() != "map" || c.parent.numberKeyed()) {
			return false
		}
	}
	return true
}

// numberKeyed reports whether the list-map n has a key property of type
// number. The apiserver pairs list-map items, and compares list-maps with
// ==, by the decoded JSON values of their keys, not by their numeric
// values: a key stored as 1 reads back as an integer, while one sent as 1.0
// or 1e0 decodes as a float, so the two are not paired; and compound keys
// format a float with six decimals, so 0.1234561 and 0.1234562 are paired.
// Rules pair such items themselves, with CEL's ==, which compares numbers by
// value (semantics.md 2.2, 2.3).
func (n *node) numberKeyed() bool {
	if n.items == nil {
		return false
	}
	for _, k := range n.listMapKeys() {
		if kn := n.items.propIndex[k]; kn != nil && kn.s.Type == "number" {
			return true
		}
	}
	return false
}

// nullableEntry reports whether n is a list item or map value that may be
// null. A null entry is a value (semantics.md 2.1), but the apiserver runs
// no rule on a null value, so no rule may be hosted on n, and expressions
// that reach n must test for null.
func (n *node) nullableEntry() bool { return n.isEntry() && n.s.Nullable }

// hostable reports whether a rule on n runs wherever n exists before and
// after the update: n is correlated and never null.
func (n *node) hostable() bool { return n.correlated() && !n.nullableEntry() }

// underSetItem reports whether n is at or below the items of a set. Such a
// node exists before and after only when the whole set item is equal, so no
// declaration there can be violated (semantics.md 3.3).
func (n *node) underSetItem() bool {
	for c := n; !c.isRoot(); c = c.parent {
		if c.isItems() && c.parent.listType() == "set" {
			return true
		}
	}
	return false
}

// valueImmutableAtOrAbove returns the nearest node at or above n that declares
// x-kubernetes-mutability or NoModify, or nil. Where such a node exists before and after
// the update its whole value is equal, so constraints on positions inside it
// hold already.
func (n *node) valueImmutableAtOrAbove() *node {
	for c := n; c != nil; c = c.parent {
		if c.decl.mutability != unset || c.decl.update.Has(decl.NoModify) {
			return c
		}
	}
	return nil
}
