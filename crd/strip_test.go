package crd

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

// TestStripEveryKind: a schema that carries every kind (decl.Kinds) on
// every sort of node keeps none after StripDeclarations. Only the
// names matter to it: every kind declares the same placeholder value.
func TestStripEveryKind(t *testing.T) {
	text := "type: object\n" + declaringEveryKind("") + `properties:
  spec:
    type: object
` + declaringEveryKind("    ") + `    properties:
      list:
        type: array
` + declaringEveryKind("        ") + `        items:
          type: string
` + declaringEveryKind("          ") + `      map:
        type: object
        additionalProperties:
          type: string
` + declaringEveryKind("          ") + `    allOf:
    - properties:
        list:
` + declaringEveryKind("          ") + `    not:
` + declaringEveryKind("      ")
	var raw map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &raw); err != nil {
		t.Fatalf("bad test schema: %v\n%s", err, text)
	}
	stripped := StripDeclarations(raw)
	var left []string
	var walk func(v interface{}, at string)
	walk = func(v interface{}, at string) {
		switch v := v.(type) {
		case map[string]interface{}:
			for key, child := range v {
				if _, isKind := decl.KindNamed(key); isKind {
					left = append(left, at+"."+key)
				}
				walk(child, at+"."+key)
			}
		case []interface{}:
			for i, child := range v {
				walk(child, fmt.Sprintf("%s[%d]", at, i))
			}
		}
	}
	walk(stripped, "")
	if len(left) > 0 {
		t.Errorf("StripDeclarations left %v", left)
	}
}

// declaringEveryKind is a YAML block mapping that declares every kind,
// indented, each with a placeholder value.
func declaringEveryKind(indent string) string {
	var b strings.Builder
	for _, k := range decl.Kinds {
		fmt.Fprintf(&b, "%s%s: x\n", indent, k.Name)
	}
	return b.String()
}
