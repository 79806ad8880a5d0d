package e2e

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apiextensions-apiserver/test/integration/fixtures"
	"k8s.io/apiserver/pkg/storage/etcd3/testserver"
	"k8s.io/client-go/dynamic"
)

// cluster is the one apiserver of a test run and its clients.
type cluster struct {
	apiExt clientset.Interface
	dyn    dynamic.Interface
}

// TestServer starts the apiserver once and runs every end-to-end test
// against it as a subtest: starting a server costs seconds, a CRD only a
// fraction of one.
func TestServer(t *testing.T) {
	c := startCluster(t)
	examples := installExamples(t, c)
	t.Run("examples", func(t *testing.T) { testExamples(t, c, examples) })
	t.Run("kep", func(t *testing.T) { testKEP(t, c) })
	t.Run("generated", func(t *testing.T) { testGenerated(t, c, examples, verifyPairs) })
}

// startCluster starts embedded etcd and an apiextensions-apiserver on it.
// A server that cannot start fails the test: the suite must run in CI.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	etcd := testserver.RunEtcd(t, nil)
	endpoints := etcd.Endpoints()
	if len(endpoints) == 0 {
		t.Fatal("embedded etcd reports no client endpoint")
	}
	// The test server reads its etcd address from this variable only.
	t.Setenv("KUBE_INTEGRATION_ETCD_URL", endpoints[0])
	tearDown, apiExt, dyn, err := fixtures.StartDefaultServerWithClients(t)
	if err != nil {
		t.Fatalf("starting the apiextensions-apiserver on etcd %s: %v (the test server finds its certificates through its source path: do not build with -trimpath)", endpoints[0], err)
	}
	// Cleanups run last-in first-out: the server stops before etcd.
	t.Cleanup(tearDown)
	return &cluster{apiExt: apiExt, dyn: dyn}
}
