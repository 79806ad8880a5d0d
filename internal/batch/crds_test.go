package batch

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/internal/manifest"
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
	f, diags := EachCRD(Input{Name: "in.yaml", Data: []byte(threeDocs)}, func(d *manifest.Document, crd CRD) error {
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
	f, diags := EachCRD(Input{Name: "bad.yaml", Data: []byte("a: [1,\n")}, func(*manifest.Document, CRD) error {
		t.Error("visited a document of an input that does not parse")
		return nil
	})
	if got := diagStrings(diags); f != nil || len(got) != 1 || got[0] != "bad.yaml:1: did not find expected node content" {
		t.Errorf("EachCRD = %v, %q; want nil and the parse error", f, got)
	}
}
