package diag

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	path := []interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec"}
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Detail: "d"}, "d"},
		{Diagnostic{File: "x.yaml", Detail: "d"}, "x.yaml: d"},
		{Diagnostic{File: "x.yaml", Column: 4, Detail: "d"}, "x.yaml: d"},
		{Diagnostic{File: "x.yaml", Line: 3, Column: 4, Detail: "d"}, "x.yaml:3:4: d"},
		{Diagnostic{File: "x.yaml", Line: 7, Doc: 2, Object: "CustomResourceDefinition/a.b", RenderedPath: "spec.x", Detail: "d"},
			"x.yaml:7: document 2 (CustomResourceDefinition/a.b): spec.x: d"},
		{Diagnostic{Doc: 2, Path: path, Where: "version v1", Type: Forbidden, Detail: "d"},
			"document 2: spec.versions[0].schema.openAPIV3Schema.properties[spec]: version v1: Forbidden: d"},
		{Diagnostic{Path: path, RenderedPath: "metadata.annotations[a]", Detail: "d", Severity: Warning},
			"metadata.annotations[a]: warning: d"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Detail: "d"}, `{"detail":"d"}`},
		{Diagnostic{File: "x.yaml", Line: 3, Column: 4, Doc: 1, Object: "K/n", Path: []interface{}{"spec"},
			Where: "w", Type: Invalid, Reason: "Cost", Detail: "d", Severity: Warning},
			`{"file":"x.yaml","line":3,"column":4,"document":1,"object":"K/n","field":"spec","type":"Invalid value","reason":"Cost","warning":true,"detail":"w: Invalid value: d"}`},
	} {
		got, err := json.Marshal(tc.d)
		if err != nil || string(got) != tc.want {
			t.Errorf("json.Marshal(%#v) = %s, %v, want %s", tc.d, got, err, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	one := List{{File: "a", Line: 1, Detail: "x"}}
	two := append(one, Diagnostic{Detail: "y"})
	for _, tc := range []struct {
		l    List
		want string
	}{
		{one, "a:1: x"},
		{two, "2 problems:\n  a:1: x\n  y"},
	} {
		if got := tc.l.Error(); got != tc.want {
			t.Errorf("%v.Error() = %q, want %q", tc.l, got, tc.want)
		}
	}
	wrapped := fmt.Errorf("reading: %w", two)
	if got, ok := As(wrapped); !ok || len(got) != 2 {
		t.Errorf("As(%v) = %v, %v, want the two diagnostics", wrapped, got, ok)
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Errorf("As(plain error) found diagnostics")
	}
}

func TestRenderPath(t *testing.T) {
	for _, tc := range []struct {
		path []interface{}
		want string
	}{
		{nil, "the document root"},
		{[]interface{}{"spec", "versions", 1, "schema", "openAPIV3Schema", "properties", "a.b", "items"}, "spec.versions[1].schema.openAPIV3Schema.properties[a.b].items"},
		{[]interface{}{"metadata", "annotations", "x"}, "metadata.annotations.x"},
	} {
		if got := RenderPath(tc.path); got != tc.want {
			t.Errorf("RenderPath(%v) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestImportsNothingOfTheModule keeps diag below every layer, leaves
// included: each package reports its problems with it.
func TestImportsNothingOfTheModule(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/mut2cel/mut2cel") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n           int
		plural, cnt string
	}{{0, "pairs", "0 pairs"}, {1, "pair", "1 pair"}, {2, "pairs", "2 pairs"}} {
		if got := Plural(c.n, "pair"); got != c.plural {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.plural)
		}
		if got := Count(c.n, "pair"); got != c.cnt {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.cnt)
		}
	}
}
