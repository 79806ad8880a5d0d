package cluster_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// TestOpenAPIAsFile reads the OpenAPI document of an installed CRD's
// group version from the cluster, and the same document as
// kubectl get --raw writes it to a file for policy --openapi, and checks
// that frontend/builtin makes the same resource and CRD of both.
func TestOpenAPIAsFile(t *testing.T) {
	gv := schema.GroupVersion{Group: "networking.example.com", Version: "v1"}
	gvk := gv.WithKind("Gateway")
	doc, err := open(t).OpenAPI(context.Background(), gv)
	if err != nil {
		t.Fatal(err)
	}
	if want := "cluster test: /openapi/v3/apis/networking.example.com/v1"; doc.Name != want {
		t.Errorf("Name = %q, want %q", doc.Name, want)
	}
	fromCluster := vehicle(t, doc, gvk)
	fromFile := vehicle(t, fileDocument(t, "/openapi/v3/apis/networking.example.com/v1"), gvk)
	if !reflect.DeepEqual(fromCluster, fromFile) {
		c, _ := yaml.Marshal(fromCluster)
		f, _ := yaml.Marshal(fromFile)
		t.Errorf("from the cluster:\n%s\nfrom the file:\n%s", c, f)
	}
	r, err := doc.Resource(gvk)
	if err != nil || r.Plural != "gateways" || r.ClusterScoped {
		t.Errorf("Resource(%s) = plural %q, cluster-scoped %t, %v; want gateways, namespaced", gvk, r.Plural, r.ClusterScoped, err)
	}
}

// vehicle is the CRD frontend/builtin makes of the kind of a document.
func vehicle(t *testing.T, doc *builtin.OpenAPI, gvk schema.GroupVersionKind) map[string]interface{} {
	t.Helper()
	r, err := doc.Resource(gvk)
	if err != nil {
		t.Fatal(err)
	}
	out, err := builtin.CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fileDocument fetches a document as kubectl get --raw does, writes it
// to a file, and reads that as policy --openapi does.
func fileDocument(t *testing.T, path string) *builtin.OpenAPI {
	t.Helper()
	client, err := kubernetes.NewForConfig(rest.CopyConfig(server.Config))
	if err != nil {
		t.Fatal(err)
	}
	data, err := client.Discovery().RESTClient().Get().AbsPath(path).Do(context.Background()).Raw()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	read, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := builtin.ReadOpenAPI(file, read)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestOpenAPIBuiltinGroup reads a group every apiserver serves, with the
// references and recursion of Go types: apiextensions.k8s.io/v1.
func TestOpenAPIBuiltinGroup(t *testing.T) {
	gv := schema.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1"}
	doc, err := open(t).OpenAPI(context.Background(), gv)
	if err != nil {
		t.Fatal(err)
	}
	r, err := doc.Resource(gv.WithKind("CustomResourceDefinition"))
	if err != nil || r.Plural != "customresourcedefinitions" || !r.ClusterScoped || !r.Status {
		t.Errorf("Resource = %+v, %v; want customresourcedefinitions, cluster-scoped, with status", r, err)
	}
}

// TestOpenAPINotServed names the group version, and what is served.
func TestOpenAPINotServed(t *testing.T) {
	r := open(t)
	for _, gv := range []schema.GroupVersion{{Group: "apps", Version: "v1"}, {Version: "v1"}} {
		_, err := r.OpenAPI(context.Background(), gv)
		name := gv.String()
		if gv.Group == "" {
			name = "core/v1"
		}
		want := "cluster test: serves no OpenAPI document for " + name + " (/openapi/v3 lists "
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "networking.example.com/v1") {
			t.Errorf("OpenAPI(%s) = %v, want %s... naming networking.example.com/v1", name, err, want)
		}
	}
}
