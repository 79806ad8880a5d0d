package reference

import "github.com/mut2cel/mut2cel/verify/internal/schemapath"

// nameNodes sets the schema path of n and of every node below it.
func nameNodes(n *node, path schemapath.Path) {
	if n == nil {
		return
	}
	n.schemaPath = path.String()
	for _, p := range n.props {
		nameNodes(p.node, path.Child(schemapath.Prop(p.name)))
	}
	nameNodes(n.items, path.Child(schemapath.Step{Kind: schemapath.Items}))
	nameNodes(n.values, path.Child(schemapath.Step{Kind: schemapath.Values}))
}

// DeclaredPaths lists the schema paths of the nodes that carry a
// declaration, in walk order.
func (c *Checker) DeclaredPaths() []schemapath.Path {
	var out []schemapath.Path
	var walk func(n *node, path schemapath.Path)
	walk = func(n *node, path schemapath.Path) {
		if n.mut != "" || n.keyMut != "" || len(n.update) > 0 || len(n.unions) > 0 {
			out = append(out, path)
		}
		for _, p := range n.props {
			walk(p.node, path.Child(schemapath.Prop(p.name)))
		}
		if n.items != nil {
			walk(n.items, path.Child(schemapath.Step{Kind: schemapath.Items}))
		}
		if n.values != nil {
			walk(n.values, path.Child(schemapath.Step{Kind: schemapath.Values}))
		}
	}
	walk(c.root, nil)
	return out
}
