package crd

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// AtDeclaration places p, a problem with the declaration d on the schema
// node at the document path node, where the user wrote d: at the node for
// the schema, at the annotation, at the line of a file, or at the node it
// was copied to.
func AtDeclaration(d decl.Declaration, node []interface{}, p diag.Diagnostic) diag.Diagnostic {
	switch d.Origin.Kind {
	case decl.InAnnotation:
		p.Where = d.Where()
		return AtAnnotation(decl.AnnotationDeclarations, p)
	case decl.InFile:
		p.Where = d.Where()
		p.File, p.Line = d.Origin.Source.File, d.Origin.Source.Line
		return p
	case decl.Copied:
		p.Where = fmt.Sprintf("%s copied from version %s", d.Ext, d.Origin.From)
		return p.At(node)
	}
	return p.At(append(append([]interface{}{}, node...), d.Ext))
}

// AtAnnotation places p at the annotation name.
func AtAnnotation(name string, p diag.Diagnostic) diag.Diagnostic {
	p.Path, p.RenderedPath = append(AnnotationsPath(), name), "metadata.annotations["+name+"]"
	return p
}
