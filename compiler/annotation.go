package compiler

import (
	"github.com/mut2cel/mut2cel/decl"
)

// The two annotations that make a translated CRD translatable again
// (docs/rewrite.md); the model reads them (crd.Own) and the CRD back end
// writes them (backend/crdrules).
const (
	annDeclarations = decl.AnnotationDeclarations
	annGenerated    = decl.AnnotationGenerated
)

// declarations maps version name -> schema path -> extension -> value,
// e.g. {"v1": {".spec.a": {"x-kubernetes-mutability": "Immutable"}}}
// (decl.Annotation).
type declarations decl.Annotation

func (d declarations) add(version, path, ext, value string) {
	decl.Annotation(d).Add(version, path, ext, value)
}

// orderVersions lists the keys of m: those in order first, in that order,
// then any others sorted.
func orderVersions[V any](order []string, m map[string]V) []string {
	return decl.OrderVersions(order, m)
}
