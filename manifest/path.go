package manifest

import (
	"fmt"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// Paths are those of edit.Edit and translate.Problem: string steps are
// mapping keys in their decoded form, int steps are sequence indices.

// child follows one step from a collection node. For a mapping it returns
// the key node and the value; for a sequence, the item twice. When a key
// occurs twice the last one wins, as in the decoded value.
func child(n *yaml.Node, step interface{}) (at, val *yaml.Node, ok bool) {
	n = deref(n)
	switch s := step.(type) {
	case string:
		if n.Kind != yaml.MappingNode {
			return nil, nil, false
		}
		i := keyIndex(n, s)
		if i < 0 {
			return nil, nil, false
		}
		return n.Content[i], n.Content[i+1], true
	case int:
		if n.Kind != yaml.SequenceNode || s < 0 || s >= len(n.Content) {
			return nil, nil, false
		}
		return n.Content[s], n.Content[s], true
	}
	return nil, nil, false
}

// keyIndex returns the index in n.Content of the last key whose decoded
// form is key, or -1.
func keyIndex(n *yaml.Node, key string) int {
	for i := len(n.Content) - 2; i >= 0; i -= 2 {
		if k, ok := keyString(n.Content[i]); ok && k == key {
			return i
		}
	}
	return -1
}

// deref looks through document and alias nodes.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode && n.Alias != nil:
			n = n.Alias
		default:
			return n
		}
	}
	return n
}

// findMapping returns the mapping node a whole path leads to.
func findMapping(root *yaml.Node, path []interface{}) (*yaml.Node, error) {
	n := deref(root)
	if n == nil {
		return nil, fmt.Errorf("the document is empty")
	}
	for i, step := range path {
		_, v, ok := child(n, step)
		if !ok {
			return nil, fmt.Errorf("%s not found", edit.Render(path[:i+1]))
		}
		n = deref(v)
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping")
	}
	return n, nil
}

// Line returns the line of the file where the node at path is, or as close
// as the document gets: the line of the deepest key or item found. For a
// mapping step it is the line of the key, which is where an editor should
// point. Lines count from 1; an empty document gives its start line.
func (d *Document) Line(path []interface{}) int {
	n := deref(d.root)
	if n == nil {
		return d.line
	}
	line := n.Line
	for _, step := range path {
		at, v, ok := child(n, step)
		if !ok {
			break
		}
		line, n = at.Line, v
	}
	return d.fileLine(line)
}
