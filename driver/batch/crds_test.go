package batch

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// threeDocs holds a ConfigMap, which the loop skips, and two CRDs; a
// document starts at its --- line.
const threeDocs = `kind: ConfigMap
apiVersion: v1
metadata: {name: c}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  a: 1
  b: 2
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
`

// TestEachCRD checks what the document loop visits and how it reports
// what visiting returns: the problems of a *translate.Error each at its
// line, in line order, and any other error at the document.
func TestEachCRD(t *testing.T) {
	var visited []string
	f, diags := EachCRD(Input{Name: "in.yaml", Data: []byte(threeDocs)}, func(d *manifest.Document, crd InputCRD) error {
		visited = append(visited, crd.At.String())
		switch crd.Name() {
		case "widgets.example.com":
			return &translate.Error{Problems: []translate.Problem{
				{Path: []interface{}{"spec", "b"}, Detail: "b is wrong"},
				{Path: []interface{}{"spec", "a"}, Detail: "a is wrong"},
			}}
		}
		return errors.New("cannot audit")
	})
	if f == nil || len(f.Docs) != 3 {
		t.Fatalf("EachCRD returned file %v; want the 3 documents", f)
	}
	wantVisited := []string{
		"in.yaml:4: document 2 (CustomResourceDefinition/widgets.example.com): ",
		"in.yaml:12: document 3 (CustomResourceDefinition/gadgets.example.com): ",
	}
	if !reflect.DeepEqual(visited, wantVisited) {
		t.Errorf("EachCRD visited %q, want %q", visited, wantVisited)
	}
	want := []string{
		"in.yaml:10: document 2 (CustomResourceDefinition/widgets.example.com): spec.a: a is wrong",
		"in.yaml:11: document 2 (CustomResourceDefinition/widgets.example.com): spec.b: b is wrong",
		"in.yaml:12: document 3 (CustomResourceDefinition/gadgets.example.com): cannot audit",
	}
	if got := diagStrings(diags); !reflect.DeepEqual(got, want) {
		t.Errorf("EachCRD diagnostics = %q, want %q", got, want)
	}
}

// TestEachCRDUnparsable checks that an input that does not parse is one
// diagnostic, which already says where, and that nothing is visited.
func TestEachCRDUnparsable(t *testing.T) {
	f, diags := EachCRD(Input{Name: "bad.yaml", Data: []byte("a: [1,\n")}, func(*manifest.Document, InputCRD) error {
		t.Error("visited a document of an input that does not parse")
		return nil
	})
	if got := diagStrings(diags); f != nil || len(got) != 1 || got[0] != "bad.yaml:1: did not find expected node content" {
		t.Errorf("EachCRD = %v, %q; want nil and the parse error", f, got)
	}
}

// TestEachCRDNotManifests checks that documents that parse but are not
// mappings are errors at their line and number, and that the CRDs of the
// input are still visited; empty documents are nothing.
func TestEachCRDNotManifests(t *testing.T) {
	in := threeDocs + "---\n- a\n- b\n---\n# nothing\n---\njust text\n---\n42\n"
	visited := 0
	_, diags := EachCRD(Input{Name: "in.yaml", Data: []byte(in)}, func(*manifest.Document, InputCRD) error {
		visited++
		return nil
	})
	want := []string{
		"in.yaml:17: document 4: not a Kubernetes manifest: the document is a list, where a manifest is a mapping (apiVersion: ..., kind: ...)",
		"in.yaml:22: document 6: not a Kubernetes manifest: the document is a string, where a manifest is a mapping (apiVersion: ..., kind: ...)",
		"in.yaml:24: document 7: not a Kubernetes manifest: the document is a number, where a manifest is a mapping (apiVersion: ..., kind: ...)",
	}
	if got := diagStrings(diags); visited != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("EachCRD visited %d CRDs with diagnostics %q; want 2 and %q", visited, got, want)
	}
}
