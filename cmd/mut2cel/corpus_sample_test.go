package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/patchrun"
	"github.com/mut2cel/mut2cel/internal/diff"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// sampleDecl declares one field of a corpus file, in every CRD and
// version that has it.
type sampleDecl struct {
	ext, value string
	props      []string
}

// corpusSample declares fields that the corpus README lists as documented
// immutable or already guarded by a transition rule, plus a key
// declaration in the file that packs 15 CRDs.
var corpusSample = map[string][]sampleDecl{
	"cluster-api/core/addons.cluster.x-k8s.io_clusterresourcesets.yaml": {
		{extMut, "Immutable", []string{"spec", "clusterSelector"}},
		{extMut, "Immutable", []string{"spec", "strategy"}},
	},
	"cluster-api/controlplane-kubeadm/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml": {
		{extMut, "Immutable", []string{"spec", "kubeadmConfigSpec", "clusterConfiguration", "caCertificateValidityPeriodDays"}},
	},
	"cert-manager/cert-manager.io_certificaterequests.yaml": {
		{extMut, "Immutable", []string{"spec", "username"}},
		{extMut, "Immutable", []string{"spec", "groups"}},
		{extMut, "Immutable", []string{"spec", "extra"}},
	},
	"jobset/jobset.x-k8s.io_jobsets.yaml":                                      {{extMut, "Immutable", []string{"spec", "managedBy"}}},
	"tekton-pipeline/300-taskrun.yaml":                                         {{extMut, "Immutable", []string{"spec", "managedBy"}}},
	"external-snapshotter/snapshot.storage.k8s.io_volumesnapshotcontents.yaml": {{extMut, "Immutable", []string{"spec", "volumeSnapshotRef"}}},
	"gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml":       {{extMut, "Immutable", []string{"spec", "controllerName"}}},
	"kueue/kueue.x-k8s.io_localqueues.yaml":                                    {{extMut, "AddOnly", []string{"spec", "clusterQueue"}}},
	"istio/crd-all.gen.yaml":                                                   {{"x-kubernetes-key-mutability", "AddOnly", []string{"spec", "hosts"}}},
}

const extMut = "x-kubernetes-mutability"

// TestCorpusSample declares fields in real CRDs, translates them as
// translate -w does, and checks that the result differs from the file
// as published only by inserted lines that are rules or the two
// annotations, that translating again changes nothing, and that the
// kustomize component built from the declared file turns the published
// file into the same CRDs.
func TestCorpusSample(t *testing.T) {
	dir := corpus.Dir(t)
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		return translate.Translate(doc, translate.Options{})
	}
	for file, decls := range corpusSample {
		t.Run(file, func(t *testing.T) {
			published, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			declared := published
			for _, d := range decls {
				var n int
				if declared, n = declare(t, file, declared, d.ext, d.value, d.props...); n == 0 {
					t.Fatalf("no CRD of %s has %s", file, strings.Join(d.props, "."))
				}
			}
			r := batch.Translate(batch.Input{Name: file, Data: declared}, tr)
			if len(r.Diags) > 0 || len(r.Warnings) > 0 {
				t.Fatalf("translate: %v %v", r.Diags, r.Warnings)
			}
			out := r.Output()
			checkOnlyInserted(t, published, out)
			again := batch.Translate(batch.Input{Name: file, Data: out}, tr)
			if len(again.Diags) > 0 || !bytes.Equal(again.Output(), out) {
				t.Errorf("translating the output again changes it: %v", again.Diags)
			}
			checkComponent(t, file, published, declared, out)
			if testing.Verbose() {
				t.Logf("diff:\n%s", diff.Unified(file, file, published, out))
			}
		})
	}
}

// checkOnlyInserted checks that out is published with lines inserted, and
// that each inserted line is part of a rule list or of the mut2cel.io
// annotations.
func checkOnlyInserted(t *testing.T, published, out []byte) {
	t.Helper()
	in, o := strings.SplitAfter(string(published), "\n"), strings.SplitAfter(string(out), "\n")
	i, blockIndent := 0, -1
	inserted := 0
	for _, l := range o {
		if i < len(in) && in[i] == l {
			i, blockIndent = i+1, -1
			continue
		}
		inserted++
		trimmed := strings.TrimSpace(l)
		indent := len(l) - len(strings.TrimLeft(l, " "))
		switch {
		case blockIndent >= 0 && indent > blockIndent:
		case strings.HasPrefix(trimmed, "mut2cel.io/declarations: |"), strings.HasPrefix(trimmed, "mut2cel.io/generated: |"):
			blockIndent = indent
		case trimmed == "annotations:", trimmed == "x-kubernetes-validations:":
		case hasAnyPrefix(strings.TrimPrefix(trimmed, "- "), "rule: ", "message: ", "reason: FieldValueForbidden", "fieldPath: "):
		default:
			t.Errorf("inserted line is neither a rule nor an annotation: %q", l)
		}
	}
	if i != len(in) {
		t.Errorf("line %d of the published file is changed or gone: %q", i+1, in[i])
	}
	if inserted == 0 {
		t.Errorf("nothing was inserted")
	}
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// checkComponent builds the published file with the component that patch
// writes for the declared file, and compares the CRDs with out.
func checkComponent(t *testing.T, file string, published, declared, out []byte) {
	t.Helper()
	checkComponentWith(t, file, published, declared, out, translate.Options{})
}

// checkComponentWith is checkComponent with the translate options of the
// patch run, e.g. the declarations of a declarations file.
func checkComponentWith(t *testing.T, file string, published, declared, out []byte, opts translate.Options) {
	t.Helper()
	tr := func(doc map[string]interface{}) (*translate.Result, error) { return translate.Translate(doc, opts) }
	crds, r := patchrun.Translate(batch.Input{Name: file, Data: declared}, tr)
	if len(r.Diags) > 0 {
		t.Fatalf("patch: %v", r.Diags)
	}
	kustomization, err := kustomize.Kustomization(crds)
	if err != nil {
		t.Fatal(err)
	}
	fsys := filesys.MakeFsInMemory()
	for path, data := range map[string][]byte{
		"/app/crds.yaml": published, "/app/mut2cel/kustomization.yaml": kustomization,
		"/app/kustomization.yaml": []byte("resources: [crds.yaml]\ncomponents: [mut2cel]\n"),
	} {
		if err := fsys.WriteFile(path, data); err != nil {
			t.Fatal(err)
		}
	}
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fsys, "/app")
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	built, err := rm.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	want, got := byName(t, out), byName(t, built)
	if len(got) != len(want) {
		t.Fatalf("kustomize builds %d objects, translate gives %d", len(got), len(want))
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			gy, _ := yaml.Marshal(got[name])
			wy, _ := yaml.Marshal(w)
			t.Errorf("kustomize builds %s differently from translate:\n%s", name, diff.Unified("translate", "kustomize", wy, gy))
		}
	}
}

// byName decodes the objects of a manifest stream, numbers as JSON has
// them, by metadata.name.
func byName(t *testing.T, data []byte) map[string]interface{} {
	t.Helper()
	f, err := manifest.Parse("objects.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]interface{}{}
	for _, d := range f.Docs {
		v := d.Value()
		if v == nil {
			continue
		}
		j, _ := json.Marshal(v)
		var norm map[string]interface{}
		_ = json.Unmarshal(j, &norm)
		out[batch.InputCRD{Value: norm}.Name()] = norm
	}
	return out
}
