package batch

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// crdDeclaring is a CRD whose field a carries ext, a declaration or
// nothing.
func crdDeclaring(name, ext string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ` + name + `}
spec:
  group: example.com
  names: {kind: Thing, plural: ` + strings.Split(name, ".")[0] + `}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {type: string, maxLength: 8` + ext + `}
`
}

// TestTranslateDeclaring checks which CRDs count as worked on: those that
// declare something, translated or not, and those whose translation
// changes them; not those that declare nothing, nor other documents.
func TestTranslateDeclaring(t *testing.T) {
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	}
	declared := crdDeclaring("as.example.com", ", x-kubernetes-mutability: Immutable")
	translated := string(Translate(Input{"a.yaml", []byte(declared)}, tr).Output())
	// Its declarations deleted, a translated CRD still has generated
	// rules to remove.
	undeclared := strings.Replace(translated, "mut2cel.io/declarations", "example.com/declarations", 1)
	for _, c := range []struct {
		name, input string
		want        int
	}{
		{"no declarations", crdDeclaring("as.example.com", ""), 0},
		{"not a CRD", "kind: ConfigMap\n", 0},
		{"declared in the schema", declared, 1},
		{"translated before, unchanged", translated, 1},
		{"declarations deleted, generated rules left", undeclared, 1},
		{"one of two", crdDeclaring("bs.example.com", "") + "---\n" + declared, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Translate(Input{"in.yaml", []byte(c.input)}, tr)
			if len(r.Diags) > 0 || r.Declaring != c.want {
				t.Errorf("Translate(%s) = Declaring %d, %v; want %d", c.name, r.Declaring, r.Diags, c.want)
			}
		})
	}
}

func TestNoDeclarations(t *testing.T) {
	got := NoDeclarations([]string{"a.yaml", "-"}, "--declarations", "--markers").String()
	want := "no declarations in a.yaml, <stdin>: declare some in the CRD schemas (x-kubernetes-mutability, x-kubernetes-key-mutability, x-kubernetes-update or x-kubernetes-unions) " +
		"or in the mut2cel.io/declarations annotation, or give --declarations or --markers"
	if got != want {
		t.Errorf("NoDeclarations = %q\nwant %q", got, want)
	}
}

// TestTranslateReformatted checks that a document written anew with
// lines outside the edits changed is reported, and only such a document.
func TestTranslateReformatted(t *testing.T) {
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	}
	declared := crdDeclaring("as.example.com", ", x-kubernetes-mutability: Immutable")
	// A flow mapping over two lines: the encoder writes it on one.
	wrapped := strings.Replace(declared, "          a: {type: string,", "          a: {type: string,\n            ", 1)
	for _, c := range []struct {
		name, input string
		want        int
	}{
		{"re-encoded alike", declared, 0},
		{"re-encoded, a flow mapping joined", wrapped, 1},
		{"a second document", crdDeclaring("bs.example.com", "") + "---\n" + wrapped, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Translate(Input{"in.yaml", []byte(c.input)}, tr)
			if len(r.Diags) > 0 || len(r.Reformatted) != c.want {
				t.Fatalf("Translate(%s) = Reformatted %v, %v; want %d", c.name, r.Reformatted, r.Diags, c.want)
			}
			for _, d := range r.Reformatted {
				if !d.IsWarning() || d.Doc != strings.Count(c.input, "---\n")+1 || !strings.Contains(d.Detail, "writes it anew") {
					t.Errorf("Translate(%s): Reformatted = %+v, want a warning at the last document", c.name, d)
				}
			}
		})
	}
}
