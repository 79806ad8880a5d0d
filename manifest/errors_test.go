package manifest

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
)

const errorsDoc = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
          rule: not a list
        properties:
          a:
            type: string
`

func TestApplyErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  string
		edit edit.Edit
		want string
	}{{
		name: "missing path",
		edit: edit.Edit{Path: schemaPath(0, "a", "b"), AddRules: rules("x")},
		want: "e.yaml:12: document 1: edit 1 at spec.versions[0].schema.openAPIV3Schema.properties[a].properties[b]: spec.versions[0].schema.openAPIV3Schema.properties[a].properties not found",
	}, {
		name: "missing key",
		edit: edit.Edit{Path: schemaPath(0, "a"), Remove: immutable},
		want: "e.yaml:12: document 1: edit 1 at spec.versions[0].schema.openAPIV3Schema.properties[a]: cannot remove x-kubernetes-mutability: no such key",
	}, {
		name: "validations not a list",
		edit: edit.Edit{Path: schemaPath(0), AddRules: rules("x")},
		want: "x-kubernetes-validations is a map[string]interface {}, not a list",
	}, {
		name: "not a mapping",
		edit: edit.Edit{Path: append(schemaPath(0, "a"), "type"), AddRules: rules("x")},
		want: "e.yaml:13: document 1: edit 1 at spec.versions[0].schema.openAPIV3Schema.properties[a].type: not a mapping",
	}, {
		name: "invalid UTF-8",
		edit: edit.Edit{Path: schemaPath(0, "a"), AddRules: rules("\xff")},
		want: "the rule of a new rule is not valid UTF-8",
	}, {
		name: "document not a mapping",
		doc:  "- a\n",
		edit: edit.Edit{Path: nil, AddRules: rules("x")},
		want: "e.yaml:1: document 1: edit 1 at the document root: the document is not a mapping",
	}} {
		t.Run(c.name, func(t *testing.T) {
			doc := c.doc
			if doc == "" {
				doc = errorsDoc
			}
			f, err := Parse("e.yaml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			err = f.Docs[0].Apply([]edit.Edit{c.edit})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Apply() error = %v, want %q", err, c.want)
			}
			if f.Changed() || string(f.Bytes()) != doc {
				t.Errorf("a failed Apply changed the document")
			}
		})
	}
}

// Applying edits one call at a time gives the same text as one call.
func TestApplyTwice(t *testing.T) {
	in := readTestdata(t, "controller-gen.in.yaml", false, false)
	edits := []edit.Edit{
		{Path: schemaPath(0, "spec", "class"), Remove: immutable, AddRules: rules("self == oldSelf")},
		{Path: schemaPath(0, "spec", "size"), Remove: immutable, AddRules: rules("self == oldSelf")},
	}
	once, _ := Parse("x.yaml", in)
	twice, _ := Parse("x.yaml", in)
	if err := once.Docs[0].Apply(edits); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if err := twice.Docs[0].Apply([]edit.Edit{e}); err != nil {
			t.Fatal(err)
		}
	}
	if string(once.Bytes()) != string(twice.Bytes()) {
		t.Errorf("two Apply calls differ from one:\n%s\n---\n%s", twice.Bytes(), once.Bytes())
	}
}
