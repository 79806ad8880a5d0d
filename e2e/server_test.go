package e2e

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/client-go/dynamic"

	"github.com/mut2cel/mut2cel/driver/apiserver"
)

// cluster is the one apiserver of a test run and its clients.
type cluster struct {
	srv    *apiserver.Server
	apiExt clientset.Interface
	dyn    dynamic.Interface
}

// TestServer starts the apiserver once and runs every end-to-end test
// against it as a subtest: starting a server costs seconds, a CRD only a
// fraction of one.
func TestServer(t *testing.T) {
	c := startCluster(t)
	examples := installExamples(t, c)
	// The groups run at once, as their subtests do (main_test.go): each
	// writes objects of its own names or in CRDs of its own.
	groups := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"examples", func(t *testing.T) { testExamples(t, c, examples) }},
		{"kep", func(t *testing.T) { testKEP(t, c) }},
		{"update", func(t *testing.T) { testUpdate(t, c) }},
		{"generated", func(t *testing.T) { testGenerated(t, c, examples, verifyPairs) }},
		{"broken", func(t *testing.T) { testBroken(t, c) }},
		{"kubebuilder", func(t *testing.T) { testKubebuilder(t, c) }},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			g.run(t)
		})
	}
}

// startCluster starts embedded etcd and an apiextensions-apiserver on it,
// as mut2cel verify --server does. A server that cannot start fails the
// test: the suite must run in CI.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	srv, err := apiserver.Start(apiserver.Options{})
	if err != nil {
		t.Fatalf("starting the apiextensions-apiserver: %v", err)
	}
	t.Cleanup(srv.Stop)
	apiExt, err := clientset.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{srv: srv, apiExt: apiExt, dyn: dyn}
}
