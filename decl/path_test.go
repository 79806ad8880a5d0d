package decl

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/internal/diag"
)

func TestPath(t *testing.T) {
	for _, c := range []struct {
		rel  []interface{}
		want string
	}{
		{nil, "."},
		{[]interface{}{"properties", "spec", "properties", "controllerName"}, ".spec.controllerName"},
		{[]interface{}{"properties", "tags", "items"}, ".tags[*]"},
		{[]interface{}{"properties", "labels", "additionalProperties", "properties", "x"}, ".labels[*].x"},
		{[]interface{}{"properties", "a.b"}, `["a.b"]`},
		{[]interface{}{"properties", "*"}, `["*"]`},
		{[]interface{}{"properties", "x-kubernetes-validations"}, ".x-kubernetes-validations"},
		{[]interface{}{"properties", "inf"}, ".inf"},
		{[]interface{}{"properties", `q"uote`, "properties", "sp ace"}, `["q\"uote"]["sp ace"]`},
		{[]interface{}{"properties", "日本"}, `["日本"]`},
	} {
		got := PathOf(c.rel).String()
		if got != c.want {
			t.Errorf("PathOf(%q) = %s, want %s", c.rel, got, c.want)
		}
		p, err := ParsePath(got)
		if err != nil {
			t.Errorf("ParsePath(%s): %v", got, err)
			continue
		}
		var back []interface{}
		for _, s := range p {
			if s.Entries {
				back = append(back, c.rel[len(back)]) // items or additionalProperties
			} else {
				back = append(back, "properties", s.Name)
			}
		}
		if !reflect.DeepEqual(back, c.rel) && !(len(back) == 0 && len(c.rel) == 0) {
			t.Errorf("ParsePath(%s) = %v, want %q", got, p, c.rel)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
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
		_, err := ParsePath(in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("ParsePath(%s) error = %q, want %q", in, got, want)
		}
	}
}

func TestResolve(t *testing.T) {
	root := map[string]interface{}{"properties": map[string]interface{}{
		"tags":   map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "string"}},
		"labels": map[string]interface{}{"type": "object", "additionalProperties": map[string]interface{}{"type": "string"}},
	}}
	for in, want := range map[string][]interface{}{
		".tags[*]":   {"properties", "tags", "items"},
		".labels[*]": {"properties", "labels", "additionalProperties"},
		".":          nil,
		".nope":      {"missing"},
		".tags.x":    {"missing"},
	} {
		p, err := ParsePath(in)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.Resolve(root)
		if want != nil && want[0] == "missing" {
			if ok {
				t.Errorf("Resolve(%s) = %v, want no node", in, got)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve(%s) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

// FuzzPath checks that a path that parses is written back in a form that
// parses to the same steps.
func FuzzPath(f *testing.F) {
	for _, s := range []string{".", ".spec.a", ".a[*].b", `.a["b.c"][*]`, `["\u00e9"]`, ".inf", `.a["\""]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		out := p.String()
		again, err := ParsePath(out)
		if err != nil || !reflect.DeepEqual(again, p) && len(p) > 0 {
			t.Fatalf("ParsePath(%q) = %v; written %q, which parses to %v (%v)", s, p, out, again, err)
		}
	})
}

func TestNearest(t *testing.T) {
	root := map[string]interface{}{"properties": map[string]interface{}{
		"spec": map[string]interface{}{"properties": map[string]interface{}{
			"listeners": map[string]interface{}{"items": map[string]interface{}{"properties": map[string]interface{}{
				"port": map[string]interface{}{}, "name": map[string]interface{}{}}}},
			"gatewayClassName": map[string]interface{}{},
			"labels":           map[string]interface{}{"additionalProperties": map[string]interface{}{}},
			"at":               map[string]interface{}{},
		}},
	}}
	for _, c := range []struct{ path, want string }{
		{".spec.listners[*].port", ".spec.listeners[*].port"},
		{".spec.gatewayClassNam", ".spec.gatewayClassName"},
		{".spec.lables[*]", ".spec.labels[*]"},
		{".spec.somethingElse", ""},       // too far from every path
		{".spec.on", ""},                  // two short names, not one typo apart
		{".spec.listeners[*].port.x", ""}, // no node that deep
	} {
		p, err := ParsePath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.Nearest(root)
		if ok != (c.want != "") || ok && got.String() != c.want {
			t.Errorf("%s.Nearest = %s, %v; want %q", c.path, got, ok, c.want)
		}
	}
}

// TestJSONStringEscapes checks that quoted names hold no character a
// terminal acts on, and still read back as the name.
func TestJSONStringEscapes(t *testing.T) {
	for _, name := range []string{"a.b", "x\x1b[31m", "c1\u009b", "nel\u0085", "\u202eevil", "bom\uFEFF", "del\x7f"} {
		q := JSONString(name)
		if diag.Printable(q) != q {
			t.Errorf("JSONString(%q) = %q holds a control character", name, q)
		}
		p, err := ParsePath(`[` + q + `]`)
		if err != nil || len(p) != 1 || p[0].Name != name {
			t.Errorf("ParsePath([%s]) = %v, %v; want the name %q back", q, p, err, name)
		}
	}
}
