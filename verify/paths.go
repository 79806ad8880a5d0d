package verify

import (
	"github.com/mut2cel/mut2cel/decl"
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

// renderSteps prints a schema path in the one notation of every message,
// the annotation and the declarations file (decl.Path): .spec.ports[*].
func renderSteps(path []step) string {
	p := make(decl.Path, len(path))
	for i, s := range path {
		p[i] = decl.Step{Name: s.name, Entries: s.kind != stepProp}
	}
	return p.String()
}

// onSchemaLine reports whether the schema paths a and b, as renderSteps
// prints them, are one node or one is below the other.
func onSchemaLine(a, b string) bool {
	pa, errA := decl.ParsePath(a)
	pb, errB := decl.ParsePath(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return onLine(stepsOf(pa), stepsOf(pb))
}

// stepsOf reads a decl.Path as steps; "[*]" is one kind of step for items
// and values alike, as a schema node is a list or an object, never both.
func stepsOf(p decl.Path) []step {
	out := make([]step, len(p))
	for i, s := range p {
		out[i] = step{stepProp, s.Name}
		if s.Entries {
			out[i] = step{kind: stepItems}
		}
	}
	return out
}

// nameNodes sets the schema path of n and of every node below it.
func nameNodes(n *node, path []step) {
	if n == nil {
		return
	}
	n.schemaPath = renderSteps(path)
	for _, p := range n.props {
		nameNodes(p.node, extend(path, step{stepProp, p.name}))
	}
	nameNodes(n.items, extend(path, step{kind: stepItems}))
	nameNodes(n.values, extend(path, step{kind: stepValues}))
}

// declaredPaths lists the schema paths of the nodes that carry a
// declaration, in walk order.
func (c *Checker) declaredPaths() [][]step {
	var out [][]step
	var walk func(n *node, path []step)
	walk = func(n *node, path []step) {
		if n.mut != "" || n.keyMut != "" || len(n.update) > 0 || len(n.unions) > 0 {
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
