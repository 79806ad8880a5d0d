package decl

import (
	"reflect"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
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
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		out := p.String()
		var d map[string]map[string]string
		text := yamlString(out) + ": {" + ExtMutability + ": Immutable}\n"
		if err := yamlUnmarshal(text, &d); err != nil || d[out] == nil {
			t.Fatalf("the written key %s does not read back: %v %v", yamlString(out), d, err)
		}
	})
}

// TestAnnotationLongPaths renders both annotations with paths around
// YAML's limit of 1024 characters for a key written before ": ", and
// reads them back: a translation with a property name of about 1,000
// characters could not be translated again.
func TestAnnotationLongPaths(t *testing.T) {
	for _, n := range []int{10, 990, 1017, 1030, 5000} {
		name := strings.Repeat("a", n)
		paths := []string{".spec." + name, `.spec["` + name + `.b"]`}
		d, r := Annotation{}, Record{}
		for _, p := range paths {
			d.Add("v1", p, ExtMutability, "Immutable")
			r.Add("v1", p, "0123456789ab")
		}
		gotD, err := ParseAnnotation(d.Render([]string{"v1"}))
		if err != nil || !reflect.DeepEqual(gotD, d) {
			t.Errorf("name of %d characters: declarations read back as %v, %v", n, gotD, err)
		}
		gotR, err := ParseRecord(r.Render([]string{"v1"}))
		if err != nil || !reflect.DeepEqual(gotR, r) {
			t.Errorf("name of %d characters: record read back as %v, %v", n, gotR, err)
		}
	}
}
