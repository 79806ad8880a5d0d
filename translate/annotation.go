package translate

import (
	"sort"

	"github.com/mut2cel/mut2cel/decl"
)

// The two annotations that make a translated CRD translatable again
// (docs/rewrite.md); their codec is decl's (decl.Annotation, decl.Record).
const (
	annDeclarations = decl.AnnotationDeclarations
	annGenerated    = decl.AnnotationGenerated
)

// declarations maps version name -> schema path -> extension -> value,
// e.g. {"v1": {".spec.a": {"x-kubernetes-mutability": "Immutable"}}}
// (decl.Annotation).
type declarations decl.Annotation

// record maps version name -> schema path -> fingerprints of the rules
// mut2cel generated on that node (decl.Record).
type record decl.Record

func (d declarations) add(version, path, ext, value string) {
	decl.Annotation(d).Add(version, path, ext, value)
}

func (r record) add(version, path, fp string) { decl.Record(r).Add(version, path, fp) }

// parseDeclarations reads the declarations annotation (decl.ParseAnnotation).
func parseDeclarations(text string) (declarations, error) {
	a, err := decl.ParseAnnotation(text)
	return declarations(a), err
}

func parseRecord(text string) (record, error) {
	r, err := decl.ParseRecord(text)
	return record(r), err
}

// render writes the declarations with versions in the order of
// spec.versions and paths sorted, one extension a line.
func (d declarations) render(versionOrder []string) string {
	return decl.Annotation(d).Render(versionOrder)
}

// render writes the record like declarations.
func (r record) render(versionOrder []string) string { return decl.Record(r).Render(versionOrder) }

// orderVersions lists the keys of m: those in order first, in that order,
// then any others sorted.
func orderVersions[V any](order []string, m map[string]V) []string {
	return decl.OrderVersions(order, m)
}

// fingerprint identifies one x-kubernetes-validations entry
// (decl.Fingerprint).
func fingerprint(entry interface{}) string { return decl.Fingerprint(entry) }

func sortedNames[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
