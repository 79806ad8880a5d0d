package translate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	sigsyaml "sigs.k8s.io/yaml"
)

// The two annotations that make a translated CRD translatable again
// (docs/rewrite.md). Both hold YAML text keyed by version name, then by
// schema path in the notation of decl.Path.
const (
	// annDeclarations holds the declarations, as the user would write them
	// in the schema; the user may edit it.
	annDeclarations = "mut2cel.io/declarations"
	// annGenerated holds a fingerprint of every rule mut2cel added, under
	// the path of the node that holds it; mut2cel owns it.
	annGenerated = "mut2cel.io/generated"
)

// declarations maps version name -> schema path -> extension -> value,
// e.g. {"v1": {".spec.a": {"x-kubernetes-mutability": "Immutable"}}}.
type declarations map[string]map[string]map[string]string

// record maps version name -> schema path -> fingerprints of the rules
// mut2cel generated on that node.
type record map[string]map[string][]string

func (d declarations) add(version, path, ext, value string) {
	if d[version] == nil {
		d[version] = map[string]map[string]string{}
	}
	if d[version][path] == nil {
		d[version][path] = map[string]string{}
	}
	d[version][path][ext] = value
}

func (r record) add(version, path, fp string) {
	if r[version] == nil {
		r[version] = map[string][]string{}
	}
	r[version][path] = append(r[version][path], fp)
}

// parseDeclarations reads the declarations annotation. Only the three
// extensions may be declared; the KEP values are strings, the update
// constraints a list, kept in canonical form.
func parseDeclarations(text string) (declarations, error) {
	var raw map[string]map[string]map[string]interface{}
	if err := sigsyaml.UnmarshalStrict([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("not a map of version -> schema path -> extension -> value: %v", cleanYAMLError(err))
	}
	d := declarations{}
	for _, v := range sortedNames(raw) {
		for _, p := range sortedNames(raw[v]) {
			if _, err := decl.ParsePath(p); err != nil {
				return nil, fmt.Errorf("version %s: %v", v, err)
			}
			for _, ext := range sortedNames(raw[v][p]) {
				value, err := annotationValue(ext, raw[v][p][ext])
				if err != nil {
					return nil, fmt.Errorf("version %s, %s: %v", v, p, err)
				}
				d.add(v, p, ext, value)
			}
		}
	}
	return d, nil
}

// annotationValue checks one value of the annotation.
func annotationValue(ext string, v interface{}) (string, error) {
	switch ext {
	case extMutability, extKeyMutability, extUpdate:
		return decl.Value(ext, v)
	}
	return "", fmt.Errorf("unknown key %s: only %s, %s and %s can be declared", decl.UnknownKey(ext), extMutability, extKeyMutability, extUpdate)
}

func parseRecord(text string) (record, error) {
	r := record{}
	if err := sigsyaml.UnmarshalStrict([]byte(text), &r); err != nil {
		return nil, fmt.Errorf("not a map of version -> schema path -> rule fingerprints: %v", cleanYAMLError(err))
	}
	return r, nil
}

func cleanYAMLError(err error) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "), "yaml: ")
}

// render writes the declarations with versions in the order of
// spec.versions and paths sorted, one extension a line.
func (d declarations) render(versionOrder []string) string {
	var b strings.Builder
	for _, v := range orderVersions(versionOrder, d) {
		fmt.Fprintf(&b, "%s:\n", yamlString(v))
		for _, p := range sortedNames(d[v]) {
			fmt.Fprintf(&b, "%s\n", mappingKey("  ", yamlString(p)))
			for _, ext := range sortedNames(d[v][p]) {
				value := d[v][p][ext]
				if ext != extUpdate { // a flow list is written as it is
					value = yamlString(value)
				}
				fmt.Fprintf(&b, "    %s: %s\n", ext, value)
			}
		}
	}
	return b.String()
}

// render writes the record like declarations, the fingerprints of a node
// as a flow list in the order the rules were generated.
func (r record) render(versionOrder []string) string {
	var b strings.Builder
	for _, v := range orderVersions(versionOrder, r) {
		fmt.Fprintf(&b, "%s:\n", yamlString(v))
		for _, p := range sortedNames(r[v]) {
			quoted := make([]string, len(r[v][p]))
			for i, fp := range r[v][p] {
				quoted[i] = jsonString(fp)
			}
			fmt.Fprintf(&b, "%s [%s]\n", mappingKey("  ", yamlString(p)), strings.Join(quoted, ", "))
		}
	}
	return b.String()
}

// maxImplicitKey is the longest key YAML reads before ": " on one line
// (an implicit key): 1024 characters in YAML 1.1 and 1.2, counted here in
// bytes, with room for the indentation.
const maxImplicitKey = 1000

// mappingKey writes key k of a block mapping, indented by indent, up to
// and including its ":". A longer key than maxImplicitKey, a path through
// long property names, is written as an explicit key, "? k" on its line
// and ":" on the next: written as usual, the annotation could not be read
// again, and the translated file not translated again.
func mappingKey(indent, k string) string {
	if len(k) <= maxImplicitKey {
		return indent + k + ":"
	}
	return indent + "? " + k + "\n" + indent + ":"
}

// orderVersions lists the keys of m: those in order first, in that order,
// then any others sorted.
func orderVersions[V any](order []string, m map[string]V) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range order {
		if _, ok := m[v]; ok && !seen[v] {
			out, seen[v] = append(out, v), true
		}
	}
	for _, v := range sortedNames(m) {
		if !seen[v] {
			out = append(out, v)
		}
	}
	return out
}

// fingerprint identifies one x-kubernetes-validations entry by all its
// keys and values: 12 hex digits of the SHA-256 of its JSON form (keys
// sorted). An entry edited in any way no longer matches.
func fingerprint(entry interface{}) string {
	data, err := json.Marshal(entry)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

func sortedNames[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
