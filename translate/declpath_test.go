package translate

import (
	"reflect"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

func yamlUnmarshal(text string, v interface{}) error { return sigsyaml.Unmarshal([]byte(text), v) }

func TestDeclPath(t *testing.T) {
	for _, c := range []struct {
		rel  []interface{}
		want string
		yaml string // how the path is written as an annotation key
	}{
		{nil, ".", "."},
		{[]interface{}{"properties", "spec", "properties", "controllerName"}, ".spec.controllerName", ".spec.controllerName"},
		{[]interface{}{"properties", "tags", "items"}, ".tags[*]", ".tags[*]"},
		{[]interface{}{"properties", "labels", "additionalProperties", "properties", "x"}, ".labels[*].x", ".labels[*].x"},
		{[]interface{}{"properties", "a.b"}, `["a.b"]`, `"[\"a.b\"]"`},
		{[]interface{}{"properties", "*"}, `["*"]`, `"[\"*\"]"`},
		{[]interface{}{"properties", "x-kubernetes-validations"}, ".x-kubernetes-validations", ".x-kubernetes-validations"},
		{[]interface{}{"properties", "inf"}, ".inf", `".inf"`},
		{[]interface{}{"properties", "5"}, ".5", `".5"`},
		{[]interface{}{"properties", "on"}, ".on", ".on"},
		{[]interface{}{"properties", `q"uote`, "properties", "sp ace"}, `["q\"uote"]["sp ace"]`, `"[\"q\\\"uote\"][\"sp ace\"]"`},
		{[]interface{}{"properties", "日本"}, `["日本"]`, `"[\"日本\"]"`},
	} {
		got := renderDeclPath(c.rel)
		if got != c.want {
			t.Errorf("renderDeclPath(%q) = %s, want %s", c.rel, got, c.want)
		}
		if y := yamlString(got); y != c.yaml {
			t.Errorf("yamlString(%s) = %s, want %s", got, y, c.yaml)
		}
		steps, err := parseDeclPath(got)
		if err != nil {
			t.Errorf("parseDeclPath(%s): %v", got, err)
			continue
		}
		var back []interface{}
		for _, s := range steps {
			if s.entries {
				back = append(back, c.rel[len(back)]) // items or additionalProperties
			} else {
				back = append(back, "properties", s.name)
			}
		}
		if !reflect.DeepEqual(back, c.rel) && !(len(back) == 0 && len(c.rel) == 0) {
			t.Errorf("parseDeclPath(%s) = %v, want %q", got, steps, c.rel)
		}
	}
}

func TestParseDeclPathErrors(t *testing.T) {
	for in, want := range map[string]string{
		"spec":       `path "spec" must start with "." (the schema root), as in .spec.field`,
		".spec..a":   `path ".spec..a": write the property name "" as [""]`,
		`.a["b`:      `path ".a[\"b": a bracketed name is a JSON string, as in ["a.b"]`,
		".a[0]":      `path ".a[0]": expected .name, ["name"] or [*] at "[0]"`,
		`.a["b"]x`:   `path ".a[\"b\"]x": expected .name, ["name"] or [*] at "x"`,
		".a[*":       `path ".a[*": expected .name, ["name"] or [*] at "[*"`,
		".sp ace.b":  `path ".sp ace.b": write the property name "sp ace" as ["sp ace"]`,
		`.a["b"`:     `path ".a[\"b\"": a bracketed name is a JSON string, as in ["a.b"]`,
		`.a["\x"]`:   `path ".a[\"\\x\"]": a bracketed name is a JSON string, as in ["a.b"]`,
		".":          "",
		`["a"].b[*]`: "",
	} {
		_, err := parseDeclPath(in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("parseDeclPath(%s) error = %q, want %q", in, got, want)
		}
	}
}

// FuzzDeclPath checks that a path that parses is written back in a form
// that parses to the same steps, and that YAML reads the written key back.
func FuzzDeclPath(f *testing.F) {
	for _, s := range []string{".", ".spec.a", ".a[*].b", `.a["b.c"][*]`, `["\u00e9"]`, ".inf", `.a["\""]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := parseDeclPath(s)
		if err != nil {
			return
		}
		var rel []interface{}
		for _, st := range steps {
			if st.entries {
				rel = append(rel, "items")
			} else {
				rel = append(rel, "properties", st.name)
			}
		}
		out := renderDeclPath(rel)
		again, err := parseDeclPath(out)
		if err != nil || !reflect.DeepEqual(again, steps) && len(steps) > 0 {
			t.Fatalf("parseDeclPath(%q) = %v; written %q, which parses to %v (%v)", s, steps, out, again, err)
		}
		var d map[string]map[string]string
		text := yamlString(out) + ": {" + extMutability + ": Immutable}\n"
		if err := yamlUnmarshal(text, &d); err != nil || d[out] == nil {
			t.Fatalf("the written key %s does not read back: %v %v", yamlString(out), d, err)
		}
	})
}
