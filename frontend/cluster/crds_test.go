package cluster_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/frontend/cluster"
)

func open(t *testing.T) *cluster.Reader {
	t.Helper()
	r, err := cluster.Open(cluster.Options{Kubeconfig: kubeconfigFile})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCRDsAsManifests reads every CRD of the cluster, in pages of three,
// and checks that each is, document and model, what its manifest file
// decodes to: what the server adds is set aside, and only what it
// defaults on create is there beyond the manifest.
func TestCRDsAsManifests(t *testing.T) {
	defer cluster.SetPageSize(3)()
	crds, err := open(t).CRDs(context.Background(), cluster.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]cluster.ServedCRD{}
	var names []string
	for _, c := range crds {
		byName[c.Name] = c
		names = append(names, c.Name)
	}
	if len(crds) != len(installed) {
		t.Errorf("CRDs() = %d CRDs (%s), want the %d installed", len(crds), strings.Join(names, ", "), len(installed))
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("CRDs() not sorted by name: %s before %s", names[i-1], names[i])
		}
	}
	for _, path := range installed {
		want, err := readManifest(path)
		if err != nil {
			t.Fatal(err)
		}
		name := want["metadata"].(map[string]interface{})["name"].(string)
		got, ok := byName[name]
		if !ok {
			t.Errorf("%s: CRD %s not read", path, name)
			continue
		}
		if origin := "cluster test: customresourcedefinitions/" + name; got.Origin != origin {
			t.Errorf("%s: Origin = %q, want %q", path, got.Origin, origin)
		}
		checkStored(t, path, got.Stored)
		withServerDefaults(want)
		if !reflect.DeepEqual(got.Document, want) {
			g, _ := yaml.Marshal(got.Document)
			w, _ := yaml.Marshal(want)
			t.Errorf("%s: read from the cluster:\n%s\nwant the manifest, with the server's defaults:\n%s", path, g, w)
		}
		sameModel(t, path, got.Document, want)
	}
}

// checkStored checks what was set aside: what the server writes on
// create, and the copy of the manifest kubectl apply keeps, for the one
// manifest installed that way.
func checkStored(t *testing.T, path string, s cluster.Stored) {
	t.Helper()
	if s.ResourceVersion == "" || s.UID == "" || s.Generation != 1 || s.CreationTimestamp == "" || s.DeletionTimestamp != "" {
		t.Errorf("%s: Stored = %+v, want a resource version, a uid, generation 1, a creation time", path, s)
	}
	if applied := strings.Contains(s.LastApplied, `"kind":"CustomResourceDefinition"`); applied != (path == appliedManifest) {
		t.Errorf("%s: Stored.LastApplied = %.40q..., want the manifest when applied as kubectl does", path, s.LastApplied)
	}
	if stored, _ := s.Status["storedVersions"].([]interface{}); len(stored) != 1 {
		t.Errorf("%s: Stored.Status = %v, want one stored version", path, s.Status)
	}
}

// withServerDefaults sets what the apiserver defaults in a CRD on create
// (apiextensions v1 SetDefaults_CustomResourceDefinitionSpec).
func withServerDefaults(doc map[string]interface{}) {
	spec := doc["spec"].(map[string]interface{})
	names := spec["names"].(map[string]interface{})
	kind := names["kind"].(string)
	if _, ok := names["singular"]; !ok {
		names["singular"] = strings.ToLower(kind)
	}
	if _, ok := names["listKind"]; !ok {
		names["listKind"] = kind + "List"
	}
	if _, ok := spec["conversion"]; !ok {
		spec["conversion"] = map[string]interface{}{"strategy": "None"}
	}
}

// sameModel checks that the model reads the two documents alike in what
// the compiler and back ends use: names, scope, mut2cel's annotations,
// versions and their schemas.
func sameModel(t *testing.T, path string, got, want map[string]interface{}) {
	t.Helper()
	g, err := crd.Read(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := crd.Read(want)
	if err != nil {
		t.Fatal(err)
	}
	type names struct{ APIVersion, Name, Group, Kind, Plural, Scope, Conversion string }
	gn := names{g.APIVersion, g.Name, g.Group, g.Kind, g.Plural, g.Scope, g.Conversion}
	wn := names{w.APIVersion, w.Name, w.Group, w.Kind, w.Plural, w.Scope, w.Conversion}
	if gn != wn {
		t.Errorf("%s: model %+v, want %+v", path, gn, wn)
	}
	if !reflect.DeepEqual(g.Own, w.Own) {
		t.Errorf("%s: mut2cel's annotations read as %+v, want %+v", path, g.Own, w.Own)
	}
	if len(g.Versions) != len(w.Versions) {
		t.Fatalf("%s: %d versions, want %d", path, len(g.Versions), len(w.Versions))
	}
	for i, v := range g.Versions {
		u := w.Versions[i]
		if v.Name != u.Name || v.Served != u.Served || v.Storage != u.Storage || !reflect.DeepEqual(v.Raw, u.Raw) {
			t.Errorf("%s: version %d is %s (served %t, storage %t), want %s (%t, %t), or their schemas differ", path, i, v.Name, v.Served, v.Storage, u.Name, u.Served, u.Storage)
		}
	}
}

// TestCRDsSelected reads CRDs by name and by group.
func TestCRDsSelected(t *testing.T) {
	r := open(t)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		sel  cluster.Selection
		want []string
	}{
		{"by name, twice", cluster.Selection{Names: []string{"gateways.networking.example.com", "volumes.storage.example.com", "gateways.networking.example.com"}},
			[]string{"gateways.networking.example.com", "volumes.storage.example.com"}},
		{"by group", cluster.Selection{Groups: []string{"storage.example.com"}}, []string{"volumes.storage.example.com", "volumesnapshots.storage.example.com"}},
		{"a group without CRDs", cluster.Selection{Groups: []string{"none.example.com"}}, nil},
		{"by name and group", cluster.Selection{Names: []string{"gateways.networking.example.com"}, Groups: []string{"pki.example.com"}},
			[]string{"certificaterequests.pki.example.com", "gateways.networking.example.com"}},
	} {
		crds, err := r.CRDs(ctx, c.sel)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, crd := range crds {
			got = append(got, crd.Name)
			if crd.Document["status"] != nil || crd.Document["kind"] != "CustomResourceDefinition" {
				t.Errorf("%s: %s: status %v, kind %v; want no status, kind CustomResourceDefinition", c.name, crd.Name, crd.Document["status"], crd.Document["kind"])
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: CRDs(%+v) = %v, want %v", c.name, c.sel, got, c.want)
		}
	}
}

// TestCRDsNotFound names every CRD the cluster does not have, by name
// alone or with a group.
func TestCRDsNotFound(t *testing.T) {
	r := open(t)
	for _, sel := range []cluster.Selection{
		{Names: []string{"b.example.com", "gateways.networking.example.com", "a.example.com"}},
		{Names: []string{"b.example.com", "gateways.networking.example.com/status", "a.example.com"}},
		{Names: []string{"b.example.com", "a.example.com"}, Groups: []string{"pki.example.com"}},
	} {
		_, err := r.CRDs(context.Background(), sel)
		want := "cluster test: no CRD named a.example.com\ncluster test: no CRD named b.example.com"
		if len(sel.Names) == 3 && strings.HasSuffix(sel.Names[1], "/status") {
			want = "cluster test: no CRD named a.example.com\ncluster test: no CRD named b.example.com\ncluster test: no CRD named gateways.networking.example.com/status"
		}
		if err == nil || err.Error() != want {
			t.Errorf("CRDs(%+v) = %v, want\n%s", sel, err, want)
		}
	}
}
