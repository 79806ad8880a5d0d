package crd

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/decl"
)

// Node is one node of a version's structural schema with its place in the
// tree: its parent, its path from the schema root, and how the apiserver
// pairs its values with old values. The compiler and the back ends walk
// the same tree, built once per version (Version.Tree).
type Node struct {
	Schema *schema.Structural
	Parent *Node
	Path   decl.Path // from the schema root

	Props  []*Node // sorted by name
	Items  *Node
	Values *Node // additionalProperties

	byName map[string]*Node
}

// Tree is the tree of the version's structural schema, built once; nil
// without a schema, and the conversion's error where the schema is not
// structural.
func (v *Version) Tree() (*Node, error) {
	if v.tree != nil {
		return v.tree, nil
	}
	s, err := v.Structural()
	if err != nil || s == nil {
		return nil, err
	}
	v.tree = NewTree(s)
	return v.tree, nil
}

// NewTree builds the tree of a structural schema.
func NewTree(s *schema.Structural) *Node { return newNode(s, nil, nil) }

func newNode(s *schema.Structural, parent *Node, path decl.Path) *Node {
	n := &Node{Schema: s, Parent: parent, Path: path}
	names := slices.Sorted(maps.Keys(s.Properties))
	if len(names) > 0 {
		n.byName = make(map[string]*Node, len(names))
	}
	for _, name := range names {
		prop := s.Properties[name]
		c := newNode(&prop, n, path.Child(decl.Step{Name: name}))
		n.Props = append(n.Props, c)
		n.byName[name] = c
	}
	if s.Items != nil {
		n.Items = newNode(s.Items, n, path.Child(decl.Step{Entries: true}))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		n.Values = newNode(s.AdditionalProperties.Structural, n, path.Child(decl.Step{Entries: true}))
	}
	return n
}

// Walk calls f on n and every node below it, parents first, properties in
// name order, then items, then map values.
func (n *Node) Walk(f func(*Node)) {
	f(n)
	for _, c := range n.Props {
		c.Walk(f)
	}
	if n.Items != nil {
		n.Items.Walk(f)
	}
	if n.Values != nil {
		n.Values.Walk(f)
	}
}

// Find returns the node at p below n, or nil.
func (n *Node) Find(p decl.Path) *Node {
	c := n
	for _, st := range p {
		switch {
		case c == nil:
			return nil
		case !st.Entries:
			c = c.byName[st.Name]
		case c.Items != nil:
			c = c.Items
		default:
			c = c.Values
		}
	}
	return c
}

// Prop is the property name of n, nil when n has none.
func (n *Node) Prop(name string) *Node { return n.byName[name] }

// Name is the property name of a property node.
func (n *Node) Name() string { return n.Path[len(n.Path)-1].Name }

func (n *Node) IsRoot() bool { return n.Parent == nil }

func (n *Node) IsProperty() bool { return !n.IsRoot() && !n.Path.IsEntry() }

// IsEntry reports whether n is a list item or map value schema.
func (n *Node) IsEntry() bool { return n.Path.IsEntry() }

// IsItems reports whether n is the items schema of a list.
func (n *Node) IsItems() bool { return n.IsEntry() && n.Parent.Items == n }

// IsValue reports whether n is the additionalProperties schema of a map.
func (n *Node) IsValue() bool { return n.IsEntry() && n.Parent.Values == n }

// DocPath is the document path of n below root, the document path of the
// schema root.
func (n *Node) DocPath(root []interface{}) []interface{} {
	if n.IsRoot() {
		return append([]interface{}{}, root...)
	}
	switch p := n.Parent.DocPath(root); {
	case n.IsItems():
		return append(p, "items")
	case n.IsValue():
		return append(p, "additionalProperties")
	default:
		return append(p, "properties", n.Name())
	}
}

// ListType is the x-kubernetes-list-type of a list, atomic when unset,
// and "" for a node that is not a list.
func (n *Node) ListType() string {
	if n.Schema.Type != "array" {
		return ""
	}
	if n.Schema.XListType == nil || *n.Schema.XListType == "" {
		return "atomic"
	}
	return *n.Schema.XListType
}

func (n *Node) IsMap() bool { return n.Values != nil }

func (n *Node) IsList() bool { return n.Schema.Type == "array" }

// ListMapKeys are the key properties of a list-type map list.
func (n *Node) ListMapKeys() []string { return n.Schema.XListMapKeys }

// Scope is the nearest entry at or above n, or the root (semantics.md 2.2).
func (n *Node) Scope() *Node {
	for c := n; ; c = c.Parent {
		if c.IsRoot() || c.IsEntry() {
			return c
		}
	}
}

// Correlated reports whether the apiserver pairs values of n with old
// values, so that a rule on n may use oldSelf: through object properties,
// map values and list-type map items, but not through items of atomic
// lists or sets, nor through the items of a list-map keyed by a number
// (NumberKeyed).
func (n *Node) Correlated() bool {
	for c := n; !c.IsRoot(); c = c.Parent {
		if c.IsItems() && (c.Parent.ListType() != "map" || c.Parent.NumberKeyed()) {
			return false
		}
	}
	return true
}

// NumberKeyed reports whether the list-map n has a key property of type
// number. The apiserver pairs list-map items, and compares list-maps with
// ==, by the decoded JSON values of their keys, not by their numeric
// values: a key stored as 1 reads back as an integer, while one sent as 1.0
// or 1e0 decodes as a float, so the two are not paired; and compound keys
// format a float with six decimals, so 0.1234561 and 0.1234562 are paired.
// Rules pair such items themselves, with CEL's ==, which compares numbers by
// value (semantics.md 2.2, 2.3).
func (n *Node) NumberKeyed() bool {
	if n.Items == nil {
		return false
	}
	for _, k := range n.ListMapKeys() {
		if kn := n.Items.byName[k]; kn != nil && kn.Schema.Type == "number" {
			return true
		}
	}
	return false
}

// NullableEntry reports whether n is a list item or map value that may be
// null. A null entry is a value (semantics.md 2.1), but the apiserver runs
// no rule on a null value, so no rule may be hosted on n, and expressions
// that reach n must test for null.
func (n *Node) NullableEntry() bool { return n.IsEntry() && n.Schema.Nullable }

// Hostable reports whether a rule on n runs wherever n exists before and
// after the update: n is correlated and never null.
func (n *Node) Hostable() bool { return n.Correlated() && !n.NullableEntry() }

// UnderSetItem reports whether n is at or below the items of a set. Such a
// node exists before and after only when the whole set item is equal, so no
// declaration there can be violated (semantics.md 3.3).
func (n *Node) UnderSetItem() bool {
	for c := n; !c.IsRoot(); c = c.Parent {
		if c.IsItems() && c.Parent.ListType() == "set" {
			return true
		}
	}
	return false
}

// KeptPresent reports whether the schema keeps property n present, and
// not null, wherever its parent exists: it is not nullable, its parent is
// not a nullable entry, and its parent requires it or it has a default.
// The apiserver's schema validation refuses an update that removes a
// required property, or sets it to null, before any rule runs, and
// defaulting fills in an absent or null defaulted one wherever its parent
// is. Like every check on stored objects, this holds for objects valid
// under the current schema.
func (n *Node) KeptPresent() bool {
	if !n.IsProperty() || n.Schema.Nullable || n.Parent.NullableEntry() {
		// A null entry exists with none of its properties
		// (semantics.md 2.1): what it requires comes and goes with
		// its being null.
		return false
	}
	if n.Schema.Default.Object != nil {
		return true
	}
	vv := n.Parent.Schema.ValueValidation
	return vv != nil && slices.Contains(vv.Required, n.Name())
}

// EmbeddedMetadata returns, for a node inside the metadata of an
// embedded resource (x-kubernetes-embedded-resource) other than its name
// and generateName, the node of that resource: the apiserver's CEL, for
// CRD rules and admission policies alike, declares only those two fields
// of such metadata, so no expression can read the others.
func (n *Node) EmbeddedMetadata() (*Node, bool) {
	for c := n; c.Parent != nil; c = c.Parent {
		if !c.IsProperty() || c.Name() != "metadata" || !c.Parent.Schema.XEmbeddedResource {
			continue
		}
		if n.Parent == c && (n.Name() == "name" || n.Name() == "generateName") {
			return nil, false
		}
		return c.Parent, true
	}
	return nil, false
}

// Between lists the nodes below n down to target, n excluded: the steps
// from n to a node below it.
func (n *Node) Between(target *Node) []*Node {
	var rev []*Node
	for c := target; c != n; c = c.Parent {
		rev = append(rev, c)
	}
	slices.Reverse(rev)
	return rev
}

// UserPath renders n as users read instance paths, with [*] for every list
// item or map value: spec.ports[*].protocol; <root> for the root.
func (n *Node) UserPath() string {
	var b strings.Builder
	for _, s := range n.Path {
		switch {
		case !s.Entries:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		default:
			b.WriteString("[*]")
		}
	}
	if b.Len() == 0 {
		return "<root>"
	}
	return b.String()
}
