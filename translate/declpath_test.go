package translate

import (
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

func yamlUnmarshal(text string, v interface{}) error { return sigsyaml.Unmarshal([]byte(text), v) }

// TestYAMLString checks how paths are written as annotation keys.
func TestYAMLString(t *testing.T) {
	for path, want := range map[string]string{
		".":                         ".",
		".spec.controllerName":      ".spec.controllerName",
		".tags[*]":                  ".tags[*]",
		`["a.b"]`:                   `"[\"a.b\"]"`,
		".inf":                      `".inf"`,
		".5":                        `".5"`,
		".on":                       ".on",
		`["q\"uote"]["sp ace"]`:     `"[\"q\\\"uote\"][\"sp ace\"]"`,
		".x-kubernetes-validations": ".x-kubernetes-validations",
	} {
		if got := yamlString(path); got != want {
			t.Errorf("yamlString(%s) = %s, want %s", path, got, want)
		}
	}
}

// FuzzDeclPath checks that YAML reads every written path key back.
func FuzzDeclPath(f *testing.F) {
	for _, s := range []string{".", ".spec.a", ".a[*].b", `.a["b.c"][*]`, `["\u00e9"]`, ".inf", `.a["\""]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := decl.ParsePath(s)
		if err != nil {
			return
		}
		out := p.String()
		var d map[string]map[string]string
		text := yamlString(out) + ": {" + extMutability + ": Immutable}\n"
		if err := yamlUnmarshal(text, &d); err != nil || d[out] == nil {
			t.Fatalf("the written key %s does not read back: %v %v", yamlString(out), d, err)
		}
	})
}
