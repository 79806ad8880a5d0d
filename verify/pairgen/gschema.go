package pairgen

import (
	"math/rand"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// gnode is what the pair generator needs of one structural schema node,
// computed once: properties in sorted order (Go map order would make
// generation depend on the run), the kind of value, and small pools of
// scalars that satisfy the node's value validations.
type gnode struct {
	s        *schema.Structural
	kind     valueKind
	props    []gprop
	propIdx  map[string]*gnode
	required map[string]bool
	items    *gnode
	values   *gnode
	listType string   // "atomic", "set" or "map" for lists
	mapKeys  []string // x-kubernetes-list-map-keys
	pool     []interface{}
	// aimed is set on nodes at or above a target, so that generated old
	// objects usually reach the declarations.
	aimed bool
	// refusals counts the pairs the apiserver refused for a field at or
	// below this optional property; avoid, set after avoidAfter of them,
	// makes the generator leave it out where it may (learn.go).
	refusals int
	avoid    bool
	// unions are those the checker reads on this object node
	// (pairunion.go).
	unions []gunion
}

type gprop struct {
	name string
	node *gnode
}

type valueKind int

const (
	kindScalar valueKind = iota
	kindObject           // properties (or none): a struct
	kindMap              // additionalProperties schema
	kindList
	kindAny // no type: preserved unknown fields or int-or-string
)

// compileSchema builds the generator view of s. rnd draws the pattern
// samples of string pools, so pools are deterministic for a seed.
func compileSchema(s *schema.Structural, rnd *rand.Rand, root bool) *gnode {
	n := &gnode{s: s, kind: kindOf(s), required: map[string]bool{}}
	if s.ValueValidation != nil {
		for _, r := range s.ValueValidation.Required {
			n.required[r] = true
		}
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		// The apiserver owns the type and object metadata of the root.
		if root && (name == "apiVersion" || name == "kind" || name == "metadata") {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	n.propIdx = make(map[string]*gnode, len(names))
	for _, name := range names {
		p := s.Properties[name]
		c := compileSchema(&p, rnd, false)
		n.props = append(n.props, gprop{name, c})
		n.propIdx[name] = c
	}
	if s.Items != nil {
		n.items = compileSchema(s.Items, rnd, false)
		n.listType = "atomic"
		if s.XListType != nil && *s.XListType != "" {
			n.listType = *s.XListType
		}
		n.mapKeys = s.XListMapKeys
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		n.values = compileSchema(s.AdditionalProperties.Structural, rnd, false)
	}
	if n.kind == kindScalar || n.kind == kindAny {
		n.pool = scalarPool(s, rnd)
	}
	return n
}

func kindOf(s *schema.Structural) valueKind {
	switch {
	case s.Type == "array":
		return kindList
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
		return kindMap
	case s.Type == "object":
		return kindObject
	case s.Type == "":
		return kindAny
	}
	return kindScalar
}

// child returns the schema of the value under key of an object or a map,
// nil for a key an object does not declare.
func (n *gnode) child(key string) *gnode {
	if n.values != nil {
		return n.values
	}
	return n.propIdx[key]
}

// at follows steps from n; nil when a step does not exist in the schema.
func (n *gnode) at(path schemapath.Path) *gnode {
	for _, st := range path {
		if n == nil {
			return nil
		}
		switch st.Kind {
		case schemapath.Property:
			n = n.propIdx[st.Name]
		case schemapath.Items:
			n = n.items
		case schemapath.Values:
			n = n.values
		}
	}
	return n
}

// aim marks the nodes on path as leading to a target.
func (n *gnode) aim(path schemapath.Path) {
	n.aimed = true
	for _, st := range path {
		switch st.Kind {
		case schemapath.Property:
			n = n.propIdx[st.Name]
		case schemapath.Items:
			n = n.items
		case schemapath.Values:
			n = n.values
		}
		if n == nil {
			return
		}
		n.aimed = true
	}
}

// allPaths lists the path of every node below n, so that untargeted
// mutations pick nodes uniformly.
func (n *gnode) allPaths(prefix schemapath.Path, out *[]schemapath.Path) {
	*out = append(*out, prefix)
	for _, p := range n.props {
		p.node.allPaths(prefix.Child(schemapath.Prop(p.name)), out)
	}
	if n.items != nil {
		n.items.allPaths(prefix.Child(schemapath.Step{Kind: schemapath.Items}), out)
	}
	if n.values != nil {
		n.values.allPaths(prefix.Child(schemapath.Step{Kind: schemapath.Values}), out)
	}
}

// minMax reads an optional bound pair with defaults.
func minMax(lo, hi *int64, defLo, defHi int) (int, int) {
	a, b := defLo, defHi
	if lo != nil && int(*lo) > a {
		a = int(*lo)
	}
	if hi != nil && int(*hi) < b {
		b = int(*hi)
	}
	return a, b
}

// sizeBounds are the bounds of a list (minItems, maxItems) or a map
// (minProperties, maxProperties); hi is -1 when there is none.
func (n *gnode) sizeBounds() (lo, hi int) {
	lo, hi = 0, -1
	vv := n.s.ValueValidation
	if vv == nil {
		return lo, hi
	}
	a, b := vv.MinItems, vv.MaxItems
	if n.kind == kindMap {
		a, b = vv.MinProperties, vv.MaxProperties
	}
	if a != nil {
		lo = int(*a)
	}
	if b != nil {
		hi = int(*b)
	}
	return lo, hi
}

// canGrow and canShrink say whether one entry may be added or removed
// without breaking the bounds.
func (n *gnode) canGrow(size int) bool {
	_, hi := n.sizeBounds()
	return hi < 0 || size < hi
}

func (n *gnode) canShrink(size int) bool {
	lo, _ := n.sizeBounds()
	return size > lo
}
