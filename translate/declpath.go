package translate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Schema paths in the mut2cel.io annotations are written relative to a
// version's openAPIV3Schema:
//
//	.                       the schema root
//	.spec.controllerName    properties spec, then controllerName
//	.spec.tags[*]           the items of the list spec.tags
//	.spec.labels[*]         the values of the map spec.labels
//	.spec["a.b"]            a property whose name is not letters, digits, _ and -
//
// "[*]" can stand for both items and additionalProperties because a
// structural schema node is either a list or an object, never both.

// plainName is a property name written without brackets.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// renderDeclPath writes a schema-relative document path (properties/NAME,
// items, additionalProperties steps) in annotation notation.
func renderDeclPath(rel []interface{}) string {
	var b strings.Builder
	for i := 0; i < len(rel); i++ {
		switch rel[i] {
		case "properties":
			i++
			name, _ := rel[i].(string)
			if plainName.MatchString(name) {
				b.WriteString("." + name)
			} else {
				b.WriteString("[" + jsonString(name) + "]")
			}
		case "items", "additionalProperties":
			b.WriteString("[*]")
		}
	}
	if b.Len() == 0 {
		return "."
	}
	return b.String()
}

// declStep is one step of a parsed path: a property name, or the entries
// of a list or map (entries true).
type declStep struct {
	name    string
	entries bool
}

// parseDeclPath reads a path in annotation notation.
func parseDeclPath(s string) ([]declStep, error) {
	if s == "." {
		return nil, nil
	}
	if !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "[") {
		return nil, fmt.Errorf("path %q must start with \".\" (the schema root), as in .spec.field", s)
	}
	var steps []declStep
	for rest := s; rest != ""; {
		switch {
		case strings.HasPrefix(rest, "[*]"):
			steps, rest = append(steps, declStep{entries: true}), rest[3:]
		case strings.HasPrefix(rest, `["`):
			name, n, err := readQuoted(rest[1:])
			if err != nil || !strings.HasPrefix(rest[1+n:], "]") {
				return nil, fmt.Errorf("path %q: a bracketed name is a JSON string, as in [\"a.b\"]", s)
			}
			steps, rest = append(steps, declStep{name: name}), rest[2+n:]
		case strings.HasPrefix(rest, "."):
			n := 1
			for n < len(rest) && rest[n] != '.' && rest[n] != '[' {
				n++
			}
			if !plainName.MatchString(rest[1:n]) {
				return nil, fmt.Errorf("path %q: write the property name %q as [%s]", s, rest[1:n], jsonString(rest[1:n]))
			}
			steps, rest = append(steps, declStep{name: rest[1:n]}), rest[n:]
		default:
			return nil, fmt.Errorf("path %q: expected .name, [\"name\"] or [*] at %q", s, rest)
		}
	}
	return steps, nil
}

// readQuoted reads the JSON string at the start of s and returns it and
// its length in s.
func readQuoted(s string) (string, int, error) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			var out string
			err := json.Unmarshal([]byte(s[:i+1]), &out)
			return out, i + 1, err
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// resolveDeclPath finds the document path, below root, of the schema node
// a parsed path names in the raw schema at root.
func resolveDeclPath(raw map[string]interface{}, root []interface{}, steps []declStep) ([]interface{}, bool) {
	path := appendPath(root)
	cur := raw
	for _, st := range steps {
		var next map[string]interface{}
		switch {
		case !st.entries:
			props, _ := cur["properties"].(map[string]interface{})
			next, _ = props[st.name].(map[string]interface{})
			path = append(path, "properties", st.name)
		case cur["items"] != nil:
			next, _ = cur["items"].(map[string]interface{})
			path = append(path, "items")
		default:
			next, _ = cur["additionalProperties"].(map[string]interface{})
			path = append(path, "additionalProperties")
		}
		if next == nil {
			return nil, false
		}
		cur = next
	}
	return path, true
}

// jsonString quotes s as JSON without HTML escapes.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
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
