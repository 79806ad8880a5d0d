package decl

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// The annotations that make a translated CRD translatable again
// (docs/rewrite.md). The first two hold YAML text keyed by version name,
// then by schema path in the notation of Path.
const (
	// AnnotationDeclarations holds the declarations, as the user would
	// write them in the schema; the user may edit it.
	AnnotationDeclarations = "mut2cel.io/declarations"
	// AnnotationGenerated holds a fingerprint (Fingerprint) of every rule
	// mut2cel added, under the path of the node that holds it; mut2cel
	// owns it.
	AnnotationGenerated = "mut2cel.io/generated"
	// AnnotationKubeVersion holds the Kubernetes version the generated
	// rules were made for ("1.33"), when it is not the compiler's
	// default, so that a later run makes them for the same version
	// without being told; mut2cel owns it.
	AnnotationKubeVersion = "mut2cel.io/kube-version"
)

// Annotations lists the annotations mut2cel reads and writes.
var Annotations = []string{AnnotationDeclarations, AnnotationGenerated, AnnotationKubeVersion}

// ParseKubeVersionRecord reads the text of AnnotationKubeVersion: a
// Kubernetes version MAJOR.MINOR, returned as written. Its range is the
// compiler's to check.
func ParseKubeVersionRecord(text string) (string, error) {
	if !kubeVersionText.MatchString(text) || strings.HasPrefix(text, "v") {
		return "", fmt.Errorf("%q: want the Kubernetes version MAJOR.MINOR the rules were made for, as in 1.33 (mut2cel writes this annotation)", text)
	}
	return text, nil
}

// Annotation is the content of AnnotationDeclarations: version name ->
// schema path -> kind name -> value in normalized text (Kind.Read), e.g.
// {"v1": {".spec.a": {"x-kubernetes-mutability": "Immutable"}}}.
type Annotation map[string]map[string]map[string]string

// Record is the content of AnnotationGenerated: version name -> schema
// path -> fingerprints of the rules mut2cel generated on that node, in
// the order they were generated.
type Record map[string]map[string][]string

// Add sets one declaration.
func (a Annotation) Add(version, path, kind, value string) {
	if a[version] == nil {
		a[version] = map[string]map[string]string{}
	}
	if a[version][path] == nil {
		a[version][path] = map[string]string{}
	}
	a[version][path][kind] = value
}

// Add appends one fingerprint.
func (r Record) Add(version, path, fp string) {
	if r[version] == nil {
		r[version] = map[string][]string{}
	}
	r[version][path] = append(r[version][path], fp)
}

// ParseAnnotation reads the text of AnnotationDeclarations. Only the
// kinds of Kinds may be declared, each value read by its kind (Value)
// and kept in normalized text; every path must parse.
func ParseAnnotation(text string) (Annotation, error) {
	var raw map[string]map[string]map[string]interface{}
	if err := sigsyaml.UnmarshalStrict([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("not a map of version -> schema path -> extension -> value: %v", cleanYAMLError(err))
	}
	a := Annotation{}
	for _, v := range slices.Sorted(maps.Keys(raw)) {
		for _, p := range slices.Sorted(maps.Keys(raw[v])) {
			if _, err := ParsePath(p); err != nil {
				return nil, fmt.Errorf("version %s: %v", v, err)
			}
			for _, kind := range slices.Sorted(maps.Keys(raw[v][p])) {
				value, err := Value(kind, raw[v][p][kind])
				if err != nil {
					return nil, fmt.Errorf("version %s, %s: %v", v, p, err)
				}
				a.Add(v, p, kind, value)
			}
		}
	}
	return a, nil
}

// ParseRecord reads the text of AnnotationGenerated.
func ParseRecord(text string) (Record, error) {
	r := Record{}
	if err := sigsyaml.UnmarshalStrict([]byte(text), &r); err != nil {
		return nil, fmt.Errorf("not a map of version -> schema path -> rule fingerprints: %v", cleanYAMLError(err))
	}
	return r, nil
}

func cleanYAMLError(err error) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "), "yaml: ")
}

// Render writes the annotation with versions in the order of
// versionOrder (spec.versions) and the others sorted, paths sorted, one
// declaration a line.
func (a Annotation) Render(versionOrder []string) string {
	var b strings.Builder
	for _, v := range OrderVersions(versionOrder, a) {
		fmt.Fprintf(&b, "%s:\n", yamlString(v))
		for _, p := range slices.Sorted(maps.Keys(a[v])) {
			fmt.Fprintf(&b, "%s\n", mappingKey("  ", yamlString(p)))
			for _, kind := range slices.Sorted(maps.Keys(a[v][p])) {
				value := a[v][p][kind]
				if k, ok := KindNamed(kind); !ok || !k.flow { // a flow value is written as it is
					value = yamlString(value)
				}
				fmt.Fprintf(&b, "    %s: %s\n", kind, value)
			}
		}
	}
	return b.String()
}

// Render writes the record like the annotation, the fingerprints of a
// node as a flow list in the order the rules were generated.
func (r Record) Render(versionOrder []string) string {
	var b strings.Builder
	for _, v := range OrderVersions(versionOrder, r) {
		fmt.Fprintf(&b, "%s:\n", yamlString(v))
		for _, p := range slices.Sorted(maps.Keys(r[v])) {
			quoted := make([]string, len(r[v][p]))
			for i, fp := range r[v][p] {
				quoted[i] = JSONString(fp)
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

// OrderVersions lists the keys of m: those in order first, in that order,
// then any others sorted.
func OrderVersions[V any](order []string, m map[string]V) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range order {
		if _, ok := m[v]; ok && !seen[v] {
			out, seen[v] = append(out, v), true
		}
	}
	for _, v := range slices.Sorted(maps.Keys(m)) {
		if !seen[v] {
			out = append(out, v)
		}
	}
	return out
}

// Fingerprint identifies one x-kubernetes-validations entry, as decoded,
// by all its keys and values: 12 hex digits of the SHA-256 of its JSON
// form (keys sorted). An entry edited in any way no longer matches.
func Fingerprint(entry interface{}) string {
	data, err := json.Marshal(entry)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// yamlPlain matches what annotation text may write unquoted, when YAML
// also reads it back as that string.
var yamlPlain = regexp.MustCompile(`^[.A-Za-z0-9_][A-Za-z0-9._/*\[\]-]*$`)

// yamlString writes s for annotation text: plain when YAML 1.1
// (sigs.k8s.io/yaml, as kubectl) and YAML 1.2 both read it back as s
// (not .inf, .5, on, y), else as a JSON string, which YAML reads alike.
func yamlString(s string) string {
	if yamlPlain.MatchString(s) && readsBack(s) {
		return s
	}
	return JSONString(s)
}

func readsBack(s string) bool {
	doc := []byte("k: " + s + "\n")
	var v1, v2 map[string]interface{}
	if sigsyaml.Unmarshal(doc, &v1) != nil || yamlv3.Unmarshal(doc, &v2) != nil {
		return false
	}
	return v1["k"] == s && v2["k"] == s
}
