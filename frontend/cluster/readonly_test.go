package cluster_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/frontend/cluster"
)

// TestOnlyGET reads through every entry point (all CRDs in pages, CRDs
// by name and by group, OpenAPI documents, one not served) and checks,
// in the server's record of what reached it, that every request of the
// reader was a GET, and that each kind of request was seen: a record
// that missed them would pass any method.
func TestOnlyGET(t *testing.T) {
	defer cluster.SetPageSize(3)()
	received.take()
	r := open(t)
	ctx := context.Background()
	if _, err := r.CRDs(ctx, cluster.Selection{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.CRDs(ctx, cluster.Selection{Names: []string{"gateways.networking.example.com", "a.example.com"}}); err == nil {
		t.Fatal("CRDs(a.example.com): no error")
	}
	if _, err := r.CRDs(ctx, cluster.Selection{Groups: []string{"storage.example.com"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.OpenAPI(ctx, schema.GroupVersion{Group: "networking.example.com", Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.OpenAPI(ctx, schema.GroupVersion{Group: "apps", Version: "v1"}); err == nil {
		t.Fatal("OpenAPI(apps/v1): no error")
	}
	seen := received.take()
	wantPaths := map[string]int{
		"/apis/apiextensions.k8s.io/v1/customresourcedefinitions":                                 4, // 8 CRDs in pages of 3, and by group
		"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gateways.networking.example.com": 1,
		"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/a.example.com":                   1,
		"/openapi/v3": 1,
		"/openapi/v3/apis/networking.example.com/v1": 1,
	}
	paths := map[string]int{}
	for _, s := range seen {
		method, path, _ := strings.Cut(s, " ")
		if method != "GET" {
			t.Errorf("the server received %s from the reader", s)
		}
		paths[path]++
	}
	for p, n := range wantPaths {
		if paths[p] < n {
			t.Errorf("the server received %d requests for %s from the reader, want at least %d; it received %v", paths[p], p, n, seen)
		}
	}
}
