package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode"

	yaml "go.yaml.in/yaml/v3"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// decodeYAML reads one YAML document as kubectl does: sigs.k8s.io/yaml
// converts it to JSON with YAML 1.1 resolution, then the apimachinery JSON
// decoder keeps integers as int64 (as unstructured objects do). A document
// whose root is not a mapping decodes to nil.
func decodeYAML(data []byte) (map[string]interface{}, error) {
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	return decodeJSON(j)
}

// decodeJSON reads one JSON value; a value that is not an object gives nil.
func decodeJSON(data []byte) (map[string]interface{}, error) {
	var v interface{}
	if err := utiljson.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	m, _ := v.(map[string]interface{})
	return m, nil
}

// parseYAMLNode parses a chunk that holds at most one document. It returns
// nil for a chunk without a document (empty or only comments).
func parseYAMLNode(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err == io.EOF {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		// Only "..." ends a document without "---"; kubectl reads just the
		// first document of such a chunk and silently drops the rest.
		return nil, fmt.Errorf("line %d: a second document starts without a --- separator", afterEndMarker(data))
	}
	return &doc, nil
}

// afterEndMarker returns the first line with content after a "..." line.
func afterEndMarker(data []byte) int {
	t := newText(data)
	for n := docEnd(t) + 2; n <= len(t.lines); n++ {
		if !t.blank(n) && !t.comment(n) {
			return n
		}
	}
	return len(t.lines)
}

// keyString returns the string a mapping key becomes when kubectl decodes
// the document: YAML 1.1 turns the plain key on into "true" and 0x10 into
// "16". It reports false for keys that are not scalars.
func keyString(k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	if k.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		k.Style&yaml.TaggedStyle != 0 && k.ShortTag() == "!!str" {
		return k.Value, true
	}
	if k.Style == 0 && plainIsString(k.Value) {
		return k.Value, true
	}
	return resolveKey(k)
}

// plainIsString is a fast path for plain keys that both YAML 1.1 and 1.2
// read as the same string: a letter followed by letters, digits, "-", "_",
// "." or "/", and none of the YAML 1.1 boolean or null words.
func plainIsString(s string) bool {
	if s == "" || !unicode.IsLetter(rune(s[0])) || s[0] >= 0x80 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
			return false
		}
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL":
		return false
	}
	return true
}

// resolveKey asks sigs.k8s.io/yaml itself what a key becomes, so that the
// answer cannot drift from the decoded document.
func resolveKey(k *yaml.Node) (string, bool) {
	text := k.Value
	if k.Style&yaml.TaggedStyle != 0 {
		text = k.Tag + " " + text
	}
	j, err := sigsyaml.YAMLToJSON([]byte(text + ": 0\n"))
	if err != nil {
		return "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(j, &m) != nil || len(m) != 1 {
		return "", false
	}
	for key := range m {
		return key, true
	}
	return "", false
}
