package translate

import (
	"github.com/mut2cel/mut2cel/decl"
)

// renderDeclPath writes a schema-relative document path in the notation of
// decl.Path.
func renderDeclPath(rel []interface{}) string { return decl.PathOf(rel).String() }

// resolveDeclPath finds the document path, below root, of the schema node
// p names in the raw schema at root.
func resolveDeclPath(raw map[string]interface{}, root []interface{}, p decl.Path) ([]interface{}, bool) {
	rel, ok := p.Resolve(raw)
	if !ok {
		return nil, false
	}
	return appendPath(root, rel...), true
}
