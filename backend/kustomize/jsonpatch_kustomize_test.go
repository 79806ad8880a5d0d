package kustomize

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// TestKustomizeJSONPatch pins what kustomize's JSON6902 implementation
// (evanphx/json-patch v4, through krusty) does with the operations the
// component relies on. If kustomize changes any of it, the guards in
// jsonpatch.go must be thought through again.
func TestKustomizeJSONPatch(t *testing.T) {
	const doc = `apiVersion: example.com/v1
kind: Thing
metadata:
  name: x
  annotations: {up: "1"}
spec:
  list: [a]
  map: {k: v}
`
	bare := strings.Replace(doc, "  annotations: {up: \"1\"}\n", "", 1)
	tests := []struct {
		name    string
		doc     string // doc unless set
		ops     string
		want    string // spec and metadata.annotations after the build
		wantErr string
	}{{
		// The bug: add on an existing key replaces the value silently.
		name: "add on an existing key replaces it",
		ops:  `[{op: add, path: /metadata/annotations, value: {mine: "2"}}]`,
		want: `{annotations: {mine: "2"}, spec: {list: [a], map: {k: v}}}`,
	}, {
		// kustomize records its build annotations (previous names and
		// kinds) in metadata.annotations before every JSON6902 patch and
		// takes them out after the build, so the patch always finds the
		// map and can add to it key by key.
		name: "annotations exist while a resource without them is patched",
		doc:  bare,
		ops:  `[{op: test, path: /metadata/annotations/mine, value: null}, {op: add, path: /metadata/annotations/mine, value: "2"}]`,
		want: `{annotations: {mine: "2"}, spec: {list: [a], map: {k: v}}}`,
	}, {
		name:    "test for null fails on the annotations of a resource without them",
		doc:     bare,
		ops:     `[{op: test, path: /metadata/annotations, value: null}]`,
		wantErr: "testing value /metadata/annotations failed",
	}, {
		name: "add on an absent key creates it",
		ops:  `[{op: add, path: /spec/new, value: [b]}]`,
		want: `{annotations: {up: "1"}, spec: {list: [a], map: {k: v}, new: [b]}}`,
	}, {
		// Not in RFC 6902, which wants the target to exist: json-patch
		// v4 takes an absent key for null. A stricter implementation
		// fails the build instead, which is loud as well.
		name: "test for null passes on an absent key",
		ops:  `[{op: test, path: /spec/new, value: null}, {op: add, path: /spec/new, value: [b]}]`,
		want: `{annotations: {up: "1"}, spec: {list: [a], map: {k: v}, new: [b]}}`,
	}, {
		name:    "test for null fails on a list",
		ops:     `[{op: test, path: /spec/list, value: null}]`,
		wantErr: "testing value /spec/list failed",
	}, {
		name:    "test for null fails on a map",
		ops:     `[{op: test, path: /metadata/annotations, value: null}]`,
		wantErr: "testing value /metadata/annotations failed",
	}, {
		name:    "test for null fails on a string",
		ops:     `[{op: test, path: /spec/map/k, value: null}]`,
		wantErr: "testing value /spec/map/k failed",
	}, {
		name:    "test for null fails when the parent is absent",
		ops:     `[{op: test, path: /spec/gone/list, value: null}]`,
		wantErr: "test operation does not apply: is missing path: /spec/gone/list",
	}, {
		name: "test compares whole values",
		ops:  `[{op: test, path: /spec, value: {map: {k: v}, list: [a]}}, {op: remove, path: /spec/list/0}]`,
		want: `{annotations: {up: "1"}, spec: {list: [], map: {k: v}}}`,
	}, {
		name:    "test fails on a changed value",
		ops:     `[{op: test, path: /spec/map, value: {k: w}}]`,
		wantErr: "testing value /spec/map failed",
	}, {
		name: "add with /- appends to an existing list",
		ops:  `[{op: add, path: /spec/list/-, value: b}]`,
		want: `{annotations: {up: "1"}, spec: {list: [a, b], map: {k: v}}}`,
	}, {
		name:    "add with /- fails on an absent list",
		ops:     `[{op: add, path: /spec/new/-, value: b}]`,
		wantErr: `add operation does not apply: doc is missing path: "/spec/new/-"`,
	}, {
		name: "replace on an existing key",
		ops:  `[{op: replace, path: /spec/map/k, value: w}]`,
		want: `{annotations: {up: "1"}, spec: {list: [a], map: {k: w}}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := yaml.YAMLToJSON([]byte(tt.ops))
			if err != nil {
				t.Fatal(err)
			}
			in := doc
			if tt.doc != "" {
				in = tt.doc
			}
			fs := filesys.MakeFsInMemory()
			mustWrite(t, fs, "/app/thing.yaml", []byte(in))
			mustWrite(t, fs, "/app/kustomization.yaml", []byte(
				"resources: [thing.yaml]\npatches:\n- target: {kind: Thing, name: x}\n  patch: '"+string(ops)+"'\n"))
			rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/app")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("kustomize build: error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("kustomize build: %v", err)
			}
			m, err := rm.Resources()[0].Map()
			if err != nil {
				t.Fatal(err)
			}
			got := normalize(t, map[string]interface{}{"annotations": m["metadata"].(map[string]interface{})["annotations"], "spec": m["spec"]})
			var want interface{}
			if err := yaml.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, normalize(t, want)) {
				t.Errorf("kustomize build = %v, want %v", got, want)
			}
		})
	}
}
