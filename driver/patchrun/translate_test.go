package patchrun

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// upstream is the kustomize back end's CRD of a later upstream release.
const upstream = "../../backend/kustomize/testdata/upstream.yaml"

// TestTranslate reads the CRDs of an input as patch does: each one
// translated, named, with its published form; the same CRD given twice is
// reported by Duplicates.
func TestTranslate(t *testing.T) {
	file := upstream
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	}
	twice := append(append([]byte{}, data...), append([]byte("---\n"), data...)...)
	crds, r := Translate(batch.Input{Name: file, Data: twice}, tr)
	if len(r.Diags) > 0 || len(crds) != 2 {
		t.Fatalf("Translate(%s twice) = %d CRDs, %v; want 2 CRDs", file, len(crds), r.Diags)
	}
	// The patches bound a list: each CRD says so at its own line.
	var bounds []int
	for _, w := range r.Warnings {
		if strings.Contains(w.Detail, "added 1 bound (maxItems 2000 on 1 list)") {
			bounds = append(bounds, w.Doc)
		}
	}
	if !reflect.DeepEqual(bounds, []int{1, 2}) {
		t.Errorf("Translate(%s twice) warns %v; want the bound added reported for documents 1 and 2", file, r.Warnings)
	}
	if want := translated(t, file, data); !reflect.DeepEqual(crds[0], want) {
		t.Errorf("Translate(%s) = %+v, want %+v", file, crds[0], want)
	}
	want := "CustomResourceDefinition widgets.example.com is given twice: a component patches each CRD once"
	if got := Duplicates(crds); len(got) != 1 || got[0].String() != want {
		t.Errorf("Duplicates = %v, want %q", got, want)
	}
	if got := Duplicates(crds[:1]); len(got) != 0 {
		t.Errorf("Duplicates of one CRD = %v, want none", got)
	}
}

// TestTranslateProblems checks that a CRD that cannot be translated is
// reported at its line and is not returned.
func TestTranslateProblems(t *testing.T) {
	in := batch.Input{Name: "bad.yaml", Data: []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a:
            type: string
            x-kubernetes-mutability: Sometimes
`)}
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	}
	crds, r := Translate(in, tr)
	if diags := r.Diags; len(crds) != 0 || len(diags) != 1 || diags[0].Line != 18 || diags[0].Object != "CustomResourceDefinition/gadgets.example.com" {
		t.Errorf("Translate(bad.yaml) = %d CRDs, %v; want none and one problem at line 18", len(crds), diags)
	}
}

// translated is the first CRD of a file as the component patches it.
func translated(t *testing.T, file string, data []byte) kustomize.Translation {
	t.Helper()
	f, err := manifest.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := translate.Translate(f.Docs[0].Value(), translate.Options{})
	if err != nil {
		t.Fatalf("Translate(%s): %v", file, err)
	}
	name := res.Base["metadata"].(map[string]interface{})["name"].(string)
	return kustomize.Translation{Name: name, Base: res.Base, Translated: res.Translated, KubeVersion: res.Plan.KubeVersion.String()}
}
