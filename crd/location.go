package crd

import (
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// Location is one schema node of one version, named the short way: where
// a declaration stands, a rule runs or a bound is set. The model turns
// it into the node's document path (Node) and renders it.
type Location struct {
	Version string // the version's name; the first version of that name
	Path    decl.Path
}

// LocationOf is where d is declared.
func LocationOf(d decl.Declaration) Location { return Location{Version: d.Version, Path: d.Path} }

// String is the short form, as messages about declarations name a node:
// version v1, .spec.a.
func (l Location) String() string { return "version " + l.Version + ", " + l.Path.String() }

// Node is the document path of the schema node l names, and whether the
// CRD has that version and its schema that node.
func (c *CRD) Node(l Location) ([]interface{}, bool) {
	v, ok := c.Version(l.Version)
	if !ok {
		return nil, false
	}
	return v.Node(l.Path)
}

// NodeAt is the decoded schema node l names (Version.NodeAt).
func (c *CRD) NodeAt(l Location) (map[string]interface{}, bool) {
	v, ok := c.Version(l.Version)
	if !ok {
		return nil, false
	}
	return v.NodeAt(l.Path)
}

// Where renders l as the apiserver prints field paths,
// spec.versions[0].schema.openAPIV3Schema.properties[spec], or in the
// short form when the CRD lacks the node.
func (c *CRD) Where(l Location) string {
	if node, ok := c.Node(l); ok {
		return edit.Render(node)
	}
	return l.String()
}
