package crd

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

// TestReadOwn reads mut2cel's annotations once, with decl's codec: what
// reads is kept, what does not is an AnnotationError and reads as empty,
// and an absent annotation is neither present nor an error.
func TestReadOwn(t *testing.T) {
	for _, tt := range []struct {
		name        string
		annotations string
		want        Own
		errors      []string
	}{{
		name: "absent",
		want: Own{Declarations: decl.Annotation{}, Record: decl.Record{}},
	}, {
		name: "both",
		annotations: `
    mut2cel.io/declarations: "v1: {.spec.a: {x-kubernetes-mutability: Immutable}}"
    mut2cel.io/generated: "v1: {.spec.a: [abc]}"`,
		want: Own{
			Declarations:    decl.Annotation{"v1": {".spec.a": {"x-kubernetes-mutability": "Immutable"}}},
			Record:          decl.Record{"v1": {".spec.a": {"abc"}}},
			HasDeclarations: true, HasRecord: true,
		},
	}, {
		name: "target",
		annotations: `
    mut2cel.io/kube-version: "1.33"`,
		want: Own{Declarations: decl.Annotation{}, Record: decl.Record{}, KubeVersion: "1.33", HasKubeVersion: true},
	}, {
		name: "unreadable target",
		annotations: `
    mut2cel.io/kube-version: newest`,
		want:   Own{Declarations: decl.Annotation{}, Record: decl.Record{}, HasKubeVersion: true},
		errors: []string{`mut2cel.io/kube-version: "newest": want the Kubernetes version`},
	}, {
		name: "unreadable",
		annotations: `
    mut2cel.io/declarations: "v1: ["
    mut2cel.io/generated: 3`,
		want:   Own{Declarations: decl.Annotation{}, Record: decl.Record{}, HasDeclarations: true},
		errors: []string{"mut2cel.io/declarations: not a map", "mut2cel.io/generated: annotations are strings"},
	}} {
		text := "apiVersion: apiextensions.k8s.io/v1\nmetadata:\n  name: w\n"
		if tt.annotations != "" {
			text += "  annotations:" + tt.annotations + "\n"
		}
		c := readYAML(t, text)
		if c.APIVersion != "apiextensions.k8s.io/v1" {
			t.Errorf("%s: APIVersion = %q", tt.name, c.APIVersion)
		}
		got := c.Own
		var errs []string
		for _, e := range got.Errors {
			errs = append(errs, e.Error())
		}
		got.Errors = nil
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Own = %+v, want %+v", tt.name, got, tt.want)
		}
		if len(errs) != len(tt.errors) {
			t.Errorf("%s: errors %q, want %q", tt.name, errs, tt.errors)
			continue
		}
		for i, e := range errs {
			if !strings.HasPrefix(e, tt.errors[i]) {
				t.Errorf("%s: error %d = %q, want it to start with %q", tt.name, i, e, tt.errors[i])
			}
		}
	}
}

// TestLocation resolves and renders a node the short way and the
// apiserver's way, and walks a version's nodes in schema order.
func TestLocation(t *testing.T) {
	c := readYAML(t, twoVersions)
	spec := Location{Version: "v1", Path: decl.Path{{Name: "spec"}}}
	if got := spec.String(); got != "version v1, .spec" {
		t.Errorf("String = %s", got)
	}
	node, ok := c.NodeAt(spec)
	if !ok || node["type"] != "object" {
		t.Errorf("NodeAt(%s) = %v, %v", spec, node, ok)
	}
	if m, ok := c.Mapping(append(c.Versions[0].Root(), "properties", "spec")); !ok || !reflect.DeepEqual(m, node) {
		t.Errorf("Mapping of %s's document path = %v, %v, want its node", spec, m, ok)
	}
	var walked []string
	c.Versions[0].Walk(func(path []interface{}, _ map[string]interface{}) {
		_, rel, _ := Split(path)
		walked = append(walked, decl.PathOf(rel).String())
	})
	if want := []string{".", ".spec"}; !reflect.DeepEqual(walked, want) {
		t.Errorf("Walk = %v, want %v", walked, want)
	}
}
