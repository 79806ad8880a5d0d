package policy

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/crd"
)

// TestPropertyNames: a policy reads a property under its own name, as a
// selection where CEL allows one and as an index where it does not (a
// reserved word, a dash, a dot), never in the escaped form of a CRD rule.
func TestPropertyNames(t *testing.T) {
	for _, tc := range []struct{ name, sel, opt string }{
		{"a", "x.a", "x.?a"},
		{"a-b", `x['a-b']`, `x[?'a-b']`},
		{"namespace", `x['namespace']`, `x[?'namespace']`},
		{"in", `x['in']`, `x[?'in']`},
		{"x.y", `x['x.y']`, `x[?'x.y']`},
		{"it's", `x["it's"]`, `x[?"it's"]`},
	} {
		if got := prop("x", tc.name); got != tc.sel {
			t.Errorf("prop(x, %q) = %s, want %s", tc.name, got, tc.sel)
		}
		if got := optProp("x", tc.name); got != tc.opt {
			t.Errorf("optProp(x, %q) = %s, want %s", tc.name, got, tc.opt)
		}
	}
}

// TestPresent: a null property counts as absent; where the schema says
// it is never null, hasValue() says so alone.
func TestPresent(t *testing.T) {
	plain := &crd.Node{Schema: &schema.Structural{}}
	nullable := &crd.Node{Schema: &schema.Structural{Generic: schema.Generic{Nullable: true}}}
	if got, want := present("x", []string{"a", "b-c"}, plain), `x.?a[?'b-c'].hasValue()`; got != want {
		t.Errorf("present = %s, want %s", got, want)
	}
	if got, want := present("x", []string{"a"}, nullable), `x.?a.orValue(null) != null`; got != want {
		t.Errorf("present(nullable) = %s, want %s", got, want)
	}
}

// TestIdentifier: variable names are CEL identifiers made of the path.
func TestIdentifier(t *testing.T) {
	for in, want := range map[string]string{
		"spec template spec": "spec_template_spec",
		"old spec a-b":       "old_spec_a_b",
		"spec __meta__ x":    "spec_meta_x",
		"1x":                 "v_1x",
		"in":                 "v_in",
	} {
		if got := identifier(splitWords(in)); got != want {
			t.Errorf("identifier(%q) = %s, want %s", in, got, want)
		}
	}
}

func splitWords(s string) []string {
	var out []string
	word := ""
	for _, r := range s {
		if r == ' ' {
			out = append(out, word)
			word = ""
			continue
		}
		word += string(r)
	}
	return append(out, word)
}
