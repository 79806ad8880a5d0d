package kustomize

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/translate"
)

// crdsOf translates every CRD of the files.
func crdsOf(t *testing.T, files ...string) []Translation {
	t.Helper()
	var crds []Translation
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := manifest.Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Docs {
			res, err := translate.Translate(d.Value(), translate.Options{})
			if err != nil {
				t.Fatalf("Translate(%s): %v", file, err)
			}
			name := res.Base["metadata"].(map[string]interface{})["name"].(string)
			crds = append(crds, Translation{Name: name, Base: res.Base, Translated: res.Translated, KubeVersion: res.Plan.KubeVersion.String()})
		}
	}
	return crds
}

// build runs kustomize on the published CRDs with the component.
func build(t *testing.T, crds []Translation, component []byte) map[string]interface{} {
	t.Helper()
	var docs []map[string]interface{}
	for _, c := range crds {
		docs = append(docs, c.Base)
	}
	out, err := kustomizeBuild(t, docs, component)
	if err != nil {
		t.Fatalf("kustomize build: %v\ncomponent:\n%s", err, component)
	}
	return out
}

// kustomizeBuild runs kustomize on the CRDs with the component and returns
// the objects it builds by name.
func kustomizeBuild(t *testing.T, docs []map[string]interface{}, component []byte) (map[string]interface{}, error) {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	var resources []string
	for i, d := range docs {
		data, err := yaml.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("crd%d.yaml", i)
		resources = append(resources, name)
		mustWrite(t, fs, "/app/"+name, data)
	}
	mustWrite(t, fs, "/app/mut2cel/kustomization.yaml", component)
	mustWrite(t, fs, "/app/kustomization.yaml", []byte(fmt.Sprintf(
		"resources: [%s]\ncomponents: [mut2cel]\n", strings.Join(resources, ", "))))
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	for _, r := range rm.Resources() {
		m, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		out[r.GetName()] = normalize(t, m)
	}
	return out, nil
}

func mustWrite(t *testing.T, fs filesys.FileSystem, path string, data []byte) {
	t.Helper()
	if err := fs.WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
}

// normalize gives every number one type, as JSON does.
func normalize(t *testing.T, v interface{}) interface{} {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out interface{}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKustomizeBuildsTranslation is the component's contract: kustomize
// applies it to the published CRDs and gets what translate gives.
func TestKustomizeBuildsTranslation(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.yaml")
	files = append(files, "testdata/escapes.yaml")
	crds := crdsOf(t, files...)
	component, err := Kustomization(crds)
	if err != nil {
		t.Fatal(err)
	}
	built := build(t, crds, component)
	for _, c := range crds {
		if got, want := built[c.Name], normalize(t, c.Translated); !reflect.DeepEqual(got, want) {
			t.Errorf("kustomize builds %s differently from translate:\n got %v\nwant %v", c.Name, got, want)
		}
	}
	golden.Check(t, "testdata/escapes.kustomization.yaml", mustKustomization(t, crdsOf(t, "testdata/escapes.yaml")))
}

func mustKustomization(t *testing.T, crds []Translation) []byte {
	t.Helper()
	out, err := Kustomization(crds)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGuardsFailOnMovedVersions reorders the versions of the published
// CRD: the test operations must stop the build.
func TestGuardsFailOnMovedVersions(t *testing.T) {
	crds := crdsOf(t, "testdata/escapes.yaml")
	component := mustKustomization(t, crds)
	spec := crds[0].Base["spec"].(map[string]interface{})
	versions := spec["versions"].([]interface{})
	spec["versions"] = []interface{}{versions[1], versions[0]}
	fs := filesys.MakeFsInMemory()
	data, _ := yaml.Marshal(crds[0].Base)
	mustWrite(t, fs, "/app/crd.yaml", data)
	mustWrite(t, fs, "/app/mut2cel/kustomization.yaml", component)
	mustWrite(t, fs, "/app/kustomization.yaml", []byte("resources: [crd.yaml]\ncomponents: [mut2cel]\n"))
	_, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
	if err == nil || !strings.Contains(err.Error(), "testing value /spec/versions/1/name failed") {
		t.Errorf("build with reordered versions: error %v, want the test operation to fail", err)
	}
}

// TestNoChangeNoPatch checks that a CRD translation leaves as it is gets
// no patch beside one that changes, and that a component with no patch
// at all is an error, never "patches: []": it would pass for one that
// translates.
func TestNoChangeNoPatch(t *testing.T) {
	crds := crdsOf(t, "testdata/escapes.yaml")
	unchanged := crds[0]
	unchanged.Name, unchanged.Translated = "unchanged.example.com", unchanged.Base
	out := mustKustomization(t, append(crds, unchanged))
	if string(out) != string(mustKustomization(t, crds)) {
		t.Errorf("Kustomization() with an unchanged CRD =\n%s\nwant the component without it", out)
	}
	if out, err := Kustomization([]Translation{unchanged}); err != ErrNoPatches {
		t.Errorf("Kustomization(unchanged) = %q, %v; want ErrNoPatches", out, err)
	}
}

// A patch whose last operation adds a multi-line annotation (no rule is
// added: the CRD already has every rule the declarations need) keeps the
// annotation's final newline through kustomize, which trims patch text.
func TestAnnotationOnlyPatch(t *testing.T) {
	base := map[string]interface{}{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]interface{}{"name": "widgets.example.com", "annotations": map[string]interface{}{"a": "b"}},
		"spec":     map[string]interface{}{"group": "example.com"}}
	translated := normalize(t, base).(map[string]interface{})
	annotations := translated["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})
	annotations["mut2cel.io/declarations"] = "v1:\n  .spec.a:\n    x-kubernetes-mutability: Immutable\n"
	crds := []Translation{{Name: "widgets.example.com", Base: base, Translated: translated}}
	component, err := Kustomization(crds)
	if err != nil {
		t.Fatal(err)
	}
	if got := build(t, crds, component)["widgets.example.com"]; !reflect.DeepEqual(got, normalize(t, translated)) {
		t.Errorf("kustomize builds\n%v\nwant\n%v\ncomponent:\n%s", got, translated, component)
	}
}
