package verify

import (
	"strings"
)

// step is one step from a schema node to a child node, and from a value to
// a value inside it: a property, any list item, any map value.
type step struct {
	kind stepKind
	name string // property name, for stepProp
}

type stepKind int

const (
	stepProp stepKind = iota
	stepItems
	stepValues
)

// renderSteps prints a schema path as the apiserver prints schema paths
// below openAPIV3Schema.
func renderSteps(path []step) string {
	var b strings.Builder
	b.WriteString("openAPIV3Schema")
	for _, s := range path {
		switch s.kind {
		case stepProp:
			b.WriteString(".properties[" + s.name + "]")
		case stepItems:
			b.WriteString(".items")
		case stepValues:
			b.WriteString(".additionalProperties")
		}
	}
	return b.String()
}

// declaredPaths lists the schema paths of the nodes that carry a
// declaration, in walk order.
func (c *Checker) declaredPaths() [][]step {
	var out [][]step
	var walk func(n *node, path []step)
	walk = func(n *node, path []step) {
		if n.mut != "" || n.keyMut != "" || len(n.update) > 0 {
			out = append(out, path)
		}
		for _, p := range n.props {
			walk(p.node, extend(path, step{stepProp, p.name}))
		}
		if n.items != nil {
			walk(n.items, extend(path, step{kind: stepItems}))
		}
		if n.values != nil {
			walk(n.values, extend(path, step{kind: stepValues}))
		}
	}
	walk(c.root, nil)
	return out
}
