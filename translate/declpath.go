package translate

import (
	"regexp"

	yamlv3 "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

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

func jsonString(s string) string { return decl.JSONString(s) }

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
	return jsonString(s)
}

func readsBack(s string) bool {
	doc := []byte("k: " + s + "\n")
	var v1, v2 map[string]interface{}
	if sigsyaml.Unmarshal(doc, &v1) != nil || yamlv3.Unmarshal(doc, &v2) != nil {
		return false
	}
	return v1["k"] == s && v2["k"] == s
}
