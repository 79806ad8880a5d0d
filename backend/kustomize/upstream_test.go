package kustomize

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/diff"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// TestUpstreamChanged applies each component to a later upstream release
// of its CRD. The build either gives exactly what translate gives with
// upstream's change in it, or fails with the error of a test operation;
// it never succeeds without upstream's change.
func TestUpstreamChanged(t *testing.T) {
	widgets := func(t *testing.T) Translation { return crdsOf(t, "testdata/upstream.yaml")[0] }
	widget := func(props ...string) []interface{} { return schemaPath(1, props...) }
	// The corpus's VolumeSnapshotContent, declarations in v1 (the first
	// version): volumeSnapshotClassName has no rules, volumeSnapshotRef one.
	snapshots := func(t *testing.T) Translation {
		return corpusCRD(t, "external-snapshotter/snapshot.storage.k8s.io_volumesnapshotcontents.yaml",
			schemaPath(0, "spec", "volumeSnapshotClassName"), schemaPath(0, "spec", "volumeSnapshotRef"))
	}
	snapshot := func(props ...string) []interface{} { return schemaPath(0, props...) }
	gadget := func(props ...string) []interface{} { return schemaPath(0, props...) }
	tests := []struct {
		name     string
		crd      func(t *testing.T) Translation
		upstream func(doc map[string]interface{}) // the change, to the published CRD
		want     func(doc map[string]interface{}) // the change, to translate's output
		wantErr  string
	}{{
		name: "unchanged", crd: widgets,
		upstream: func(map[string]interface{}) {},
		want:     func(map[string]interface{}) {},
	}, {
		name: "annotation added where the copy has none", crd: widgets,
		upstream: func(d map[string]interface{}) {
			at(d, "metadata")["annotations"] = map[string]interface{}{"example.com/release": "v2"}
		},
		want: func(d map[string]interface{}) { at(d, "metadata", "annotations")["example.com/release"] = "v2" },
	}, {
		name: "rule added to a declared field without rules", crd: widgets,
		upstream: addRule(widget("spec", "class")),
		wantErr:  "testing value /spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/class/x-kubernetes-validations failed",
	}, {
		name: "versions reordered", crd: widgets,
		upstream: swapVersions,
		wantErr:  "testing value /spec/versions/1/name failed",
	}, {
		name: "rule added to a declared field with rules", crd: widgets,
		upstream: addRule(widget("spec", "region")),
		want:     insertRule(widget("spec", "region"), 1),
	}, {
		name: "rule added to the root, which had none", crd: widgets,
		upstream: addRule(widget()),
		wantErr:  "testing value /spec/versions/1/schema/openAPIV3Schema/x-kubernetes-validations failed",
	}, {
		name: "bound set where the component sets one", crd: widgets,
		upstream: func(d map[string]interface{}) { at(d, widget("spec", "finalizers")...)["maxItems"] = 16 },
		wantErr:  "testing value /spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/finalizers/maxItems failed",
	}, {
		name: "declared field removed", crd: widgets,
		upstream: func(d map[string]interface{}) { delete(at(d, append(widget("spec"), "properties")...), "class") },
		wantErr:  "test operation does not apply: is missing path: /spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/class/x-kubernetes-validations",
	}, {
		name: "field added and another version changed", crd: widgets,
		upstream: func(d map[string]interface{}) {
			at(d, append(widget("spec"), "properties")...)["size"] = map[string]interface{}{"type": "integer"}
			at(d, "spec", "versions", 0)["served"] = false
		},
		want: func(d map[string]interface{}) {
			at(d, append(widget("spec"), "properties")...)["size"] = map[string]interface{}{"type": "integer"}
			at(d, "spec", "versions", 0)["served"] = false
		},
	}, {
		name: "corpus: unchanged", crd: snapshots,
		upstream: func(map[string]interface{}) {},
		want:     func(map[string]interface{}) {},
	}, {
		name: "corpus: annotation changed and one added", crd: snapshots,
		upstream: func(d map[string]interface{}) {
			at(d, "metadata", "annotations")["controller-gen.kubebuilder.io/version"] = "v0.16.0"
			at(d, "metadata", "annotations")["example.com/release"] = "v9"
		},
		want: func(d map[string]interface{}) {
			at(d, "metadata", "annotations")["controller-gen.kubebuilder.io/version"] = "v0.16.0"
			at(d, "metadata", "annotations")["example.com/release"] = "v9"
		},
	}, {
		name: "corpus: rule added to a declared field without rules", crd: snapshots,
		upstream: addRule(snapshot("spec", "volumeSnapshotClassName")),
		wantErr:  "testing value /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/volumeSnapshotClassName/x-kubernetes-validations failed",
	}, {
		name: "corpus: rule added to a declared field with rules", crd: snapshots,
		upstream: addRule(snapshot("spec", "volumeSnapshotRef")),
		want:     insertRule(snapshot("spec", "volumeSnapshotRef"), 1),
	}, {
		name: "corpus: versions reordered", crd: snapshots,
		upstream: swapVersions,
		wantErr:  "testing value /spec/versions/0/name failed",
	}, {
		name: "hand-made: unchanged", crd: gadgets,
		upstream: func(map[string]interface{}) {},
		want:     func(map[string]interface{}) {},
	}, {
		name: "hand-made: replaced bound changed", crd: gadgets,
		upstream: func(d map[string]interface{}) { at(d, gadget("spec", "a")...)["maxLength"] = 12 },
		wantErr:  "testing value /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/maxLength failed",
	}, {
		name: "hand-made: removed key changed", crd: gadgets,
		upstream: func(d map[string]interface{}) { at(d, gadget("spec", "a")...)["x-kubernetes-mutability"] = "AddOnly" },
		wantErr:  "testing value /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/x-kubernetes-mutability failed",
	}, {
		name: "hand-made: rule inserted before the rule patched in place", crd: gadgets,
		upstream: insertRule(gadget("spec"), 0),
		wantErr:  "testing value /spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0 failed",
	}, {
		name: "hand-made: rule appended after the rule removed", crd: gadgets,
		upstream: addRule(gadget("spec")),
		want:     addRule(gadget("spec")),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.crd(t)
			component := mustKustomization(t, []Translation{c})
			upstream := copyDoc(t, c.Base)
			tt.upstream(upstream)
			built, err := kustomizeBuild(t, []map[string]interface{}{upstream}, component)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("kustomize build: error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("kustomize build: %v", err)
			}
			want := copyDoc(t, c.Translated)
			tt.want(want)
			if got := built[c.Name]; !reflect.DeepEqual(got, want) {
				t.Errorf("kustomize build differs from translate with upstream's change:\n%s",
					diff.Unified("want", "got", mustYAML(t, want), mustYAML(t, got)))
			}
		})
	}
}

// gadgetsYAML is the published half of a hand-made pair (gadgets) that
// needs the operations translate does not produce today.
const gadgetsYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget}
  scope: Namespaced
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
            x-kubernetes-validations:
            - {rule: has(self.a), message: a is required}
            - {rule: has(self.b), message: b is required}
            properties:
              a: {type: string, maxLength: 10, x-kubernetes-mutability: Immutable}
              b: {type: string}
`

// gadgets pairs gadgetsYAML with a translation that replaces a bound,
// removes a key, patches a list item in place and removes the last one.
func gadgets(t *testing.T) Translation {
	t.Helper()
	var base map[string]interface{}
	if err := yaml.Unmarshal([]byte(gadgetsYAML), &base); err != nil {
		t.Fatal(err)
	}
	out := copyDoc(t, base)
	a := at(out, schemaPath(0, "spec", "a")...)
	a["maxLength"] = 20
	delete(a, "x-kubernetes-mutability")
	spec := at(out, schemaPath(0, "spec")...)
	rules := spec["x-kubernetes-validations"].([]interface{})
	rules[0].(map[string]interface{})["message"] = "spec.a is required"
	spec["x-kubernetes-validations"] = rules[:1]
	return Translation{Name: "gadgets.example.com", Base: base, Translated: out}
}

// corpusCRD translates a one-CRD corpus file with an Immutable
// declaration on each schema node at paths.
func corpusCRD(t *testing.T, file string, paths ...[]interface{}) Translation {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus.Dir(t), file))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		at(doc, p...)["x-kubernetes-mutability"] = "Immutable"
	}
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		t.Fatalf("Translate(%s): %v", file, err)
	}
	return Translation{Name: at(doc, "metadata")["name"].(string), Base: res.Base, Translated: res.Translated}
}

// schemaPath leads to the schema of a property in the version at index
// v; no props, to the root.
func schemaPath(v int, props ...string) []interface{} {
	p := []interface{}{"spec", "versions", v, "schema", "openAPIV3Schema"}
	for _, name := range props {
		p = append(p, "properties", name)
	}
	return p
}

// at returns the mapping at path (map keys and list indexes).
func at(doc map[string]interface{}, path ...interface{}) map[string]interface{} {
	var cur interface{} = doc
	for _, step := range path {
		switch s := step.(type) {
		case string:
			cur = cur.(map[string]interface{})[s]
		case int:
			cur = cur.([]interface{})[s]
		}
	}
	return cur.(map[string]interface{})
}

// upstreamRule is the rule a later upstream release adds.
var upstreamRule = map[string]interface{}{"rule": "size(self) > 0", "message": "must not be empty"}

// addRule appends upstreamRule to the rules of the node at path, making
// the list if there is none.
func addRule(path []interface{}) func(map[string]interface{}) {
	return insertRule(path, -1)
}

// insertRule inserts upstreamRule before the i-th rule of the node at
// path; -1 appends.
func insertRule(path []interface{}, i int) func(map[string]interface{}) {
	return func(doc map[string]interface{}) {
		node := at(doc, path...)
		rules, _ := node["x-kubernetes-validations"].([]interface{})
		if i < 0 {
			i = len(rules)
		}
		rules = append(rules[:i:i], append([]interface{}{upstreamRule}, rules[i:]...)...)
		node["x-kubernetes-validations"] = rules
	}
}

func swapVersions(doc map[string]interface{}) {
	versions := at(doc, "spec")["versions"].([]interface{})
	versions[0], versions[1] = versions[1], versions[0]
}

// copyDoc returns a deep copy of doc, numbers as JSON has them.
func copyDoc(t *testing.T, doc map[string]interface{}) map[string]interface{} {
	t.Helper()
	return normalize(t, doc).(map[string]interface{})
}

func mustYAML(t *testing.T, v interface{}) []byte {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
