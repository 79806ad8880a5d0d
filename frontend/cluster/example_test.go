package cluster_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/frontend/cluster"
)

// Read a CRD installed in a cluster, and the OpenAPI document of its
// group version, as kubectl reaches the cluster. kubeconfigFile reaches
// the tests' apiserver, with the translated examples installed, as the
// context "test".
func ExampleOpen() {
	ctx := context.Background()
	r, err := cluster.Open(cluster.Options{Kubeconfig: kubeconfigFile, Context: "test"})
	if err != nil {
		fmt.Println(err)
		return
	}
	crds, err := r.CRDs(ctx, cluster.Selection{Names: []string{"gateways.networking.example.com"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range crds {
		model, _ := crd.Read(c.Document)
		fmt.Println(c.Origin)
		fmt.Println(model.Kind, model.Scope, model.VersionNames(), c.Stored.Status["storedVersions"])
	}
	doc, err := r.OpenAPI(ctx, schema.GroupVersion{Group: "networking.example.com", Version: "v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	gvk := schema.GroupVersionKind{Group: "networking.example.com", Version: "v1", Kind: "Gateway"}
	res, err := doc.Resource(gvk)
	if err != nil {
		fmt.Println(err)
		return
	}
	vehicle, err := builtin.CRD(res)
	fmt.Println(doc.Name)
	fmt.Println(res.Name(), vehicle != nil, err)
	// Output:
	// cluster test: customresourcedefinitions/gateways.networking.example.com
	// Gateway Namespaced [v1] [v1]
	// cluster test: /openapi/v3/apis/networking.example.com/v1
	// gateways.networking.example.com true <nil>
}
