package crd

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
)

func readYAML(t *testing.T, text string) *CRD {
	t.Helper()
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("bad test document: %v", err)
	}
	c, err := Read(doc)
	if err != nil {
		t.Fatalf("Read = %v", err)
	}
	return c
}

const twoVersions = `
metadata:
  name: widgets.example.com
  annotations: {a: b}
spec:
  group: example.com
  names: {kind: Widget}
  scope: Namespaced
  conversion: {strategy: Webhook}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-mutability: Immutable
  - name: v2
    served: false
`

func TestRead(t *testing.T) {
	c := readYAML(t, twoVersions)
	got := []string{c.Name, c.Group, c.Kind, c.Scope, c.Conversion}
	want := []string{"widgets.example.com", "example.com", "Widget", "Namespaced", "Webhook"}
	if !reflect.DeepEqual(got, want) || !c.Webhook() || c.Annotations["a"] != "b" {
		t.Errorf("Read = %q %v, want %q, Webhook and annotation a", got, c.Annotations, want)
	}
	if len(c.Versions) != 2 {
		t.Fatalf("Read has %d versions, want 2", len(c.Versions))
	}
	v1, v2 := c.Versions[0], c.Versions[1]
	if v1.Index != 0 || v1.Name != "v1" || !v1.Served || !v1.Storage || v1.Raw == nil {
		t.Errorf("version 0 = %+v", v1)
	}
	if v2.Index != 1 || v2.Served || v2.Raw != nil {
		t.Errorf("version 1 = %+v", v2)
	}
	spec := Location{Version: "v1", Path: decl.Path{{Name: "spec"}}}
	if got := c.Where(spec); got != "spec.versions[0].schema.openAPIV3Schema.properties[spec]" {
		t.Errorf("Where(%s) = %s", spec, got)
	}
	if gone := (Location{Version: "v2", Path: spec.Path}); c.Where(gone) != "version v2, .spec" {
		t.Errorf("Where(%s) = %s, want the short form", gone, c.Where(gone))
	}
	s, err := v1.Structural()
	if err != nil || s.Properties["spec"].Type != "object" {
		t.Errorf("Structural() = %v, %v", s, err)
	}
	if s2, _ := v1.Structural(); s2 != s {
		t.Errorf("Structural() converted twice")
	}
	if s, err := v2.Structural(); s != nil || err != nil {
		t.Errorf("Structural() of a version without schema = %v, %v, want nil, nil", s, err)
	}
	if _, ok := c.Version("v3"); ok {
		t.Errorf("Version(v3) found a version the CRD lacks")
	}
}

func TestReadNil(t *testing.T) {
	if _, err := Read(nil); err == nil {
		t.Errorf("Read(nil) = nil error")
	}
}

// A field of the wrong type reads as absent, as the apiserver's CRD
// validation will say.
func TestReadWrongTypes(t *testing.T) {
	c := readYAML(t, `
metadata: [x]
spec:
  versions:
  - name: 1
    served: "yes"
    schema: {openAPIV3Schema: [x]}
  - x
`)
	if c.Name != "" || len(c.Versions) != 2 {
		t.Fatalf("Read = %+v", c)
	}
	for _, v := range c.Versions {
		if v.Name != "" || v.Served || v.Raw != nil {
			t.Errorf("version %d = %+v, want nothing read", v.Index, v)
		}
	}
}

func TestSchemaError(t *testing.T) {
	for _, tc := range []struct {
		schema, want  string
		notStructural bool
	}{
		{`{type: 3}`, "spec.versions[0].schema.openAPIV3Schema: version v1: json: cannot unmarshal", false},
		{`{type: object, properties: {a: {}}}`, "spec.versions[0].schema.openAPIV3Schema: version v1: the schema is not structural", true},
	} {
		c := readYAML(t, "spec: {versions: [{name: v1, schema: {openAPIV3Schema: "+tc.schema+"}}]}")
		_, err := c.Versions[0].Structural()
		var se *SchemaError
		if !errors.As(err, &se) || se.NotStructural != tc.notStructural || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Structural() of %s = %v, want a *SchemaError starting %q", tc.schema, err, tc.want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		path  []interface{}
		index int
		rel   []interface{}
		ok    bool
	}{
		{SchemaRoot(2), 2, []interface{}{}, true},
		{append(SchemaRoot(0), "properties", "spec"), 0, []interface{}{"properties", "spec"}, true},
		{[]interface{}{"spec", "versions", 0, "schema"}, 0, nil, false},
		{[]interface{}{"spec", "versions", "v1", "schema", "openAPIV3Schema"}, 0, nil, false},
		{[]interface{}{"metadata", "annotations", 0, "schema", "openAPIV3Schema"}, 0, nil, false},
	} {
		i, rel, ok := Split(tc.path)
		if i != tc.index || ok != tc.ok || (ok && !reflect.DeepEqual(rel, tc.rel)) {
			t.Errorf("Split(%v) = %d, %v, %v, want %d, %v, %v", tc.path, i, rel, ok, tc.index, tc.rel, tc.ok)
		}
	}
}

func TestVersionOfField(t *testing.T) {
	for f, want := range map[string]int{
		SchemaField(3).String():                3,
		VersionField(0).Child("name").String(): 0,
		"spec.validation.openAPIV3Schema":      -1,
	} {
		i, ok := VersionOfField(f)
		if ok != (want >= 0) || (ok && i != want) {
			t.Errorf("VersionOfField(%s) = %d, %v, want %d", f, i, ok, want)
		}
	}
}
