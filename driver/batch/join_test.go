package batch

import "testing"

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"a: 1\n", "b: 2\n"}, "a: 1\n---\nb: 2\n"},
		{[]string{"a: 1", "b: 2"}, "a: 1\n---\nb: 2"},
		{[]string{"a: 1\n", "---\nb: 2\n"}, "a: 1\n---\nb: 2\n"},
		{[]string{"a: 1\n", "# c\n--- # d\nb: 2\n"}, "a: 1\n# c\n--- # d\nb: 2\n"},
		{[]string{"a: 1\n", "# only a comment\n"}, "a: 1\n---\n# only a comment\n"},
		{[]string{"", "a: 1\n", "", "{\"b\": 2}"}, "a: 1\n---\n{\"b\": 2}"},
		{[]string{"a: 1\r\n", "----\n"}, "a: 1\r\n---\n----\n"},
	} {
		var parts [][]byte
		for _, p := range c.parts {
			parts = append(parts, []byte(p))
		}
		if got := string(Join(parts)); got != c.want {
			t.Errorf("Join(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
}

func TestDiagnosticString(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Detail: "x.yaml:3: bad"}, "x.yaml:3: bad"},
		{Diagnostic{File: "x.yaml", Detail: "no such file"}, "x.yaml: no such file"},
		{Diagnostic{File: "x.yaml", Line: 7, Doc: 2, Object: "CustomResourceDefinition/a.b", RenderedPath: "spec.x", Detail: "d"},
			"x.yaml:7: document 2 (CustomResourceDefinition/a.b): spec.x: d"},
		{Diagnostic{File: "x.yaml", Doc: 1, Detail: "d"}, "x.yaml: document 1: d"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}
