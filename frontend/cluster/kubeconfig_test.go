package cluster_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/frontend/cluster"
)

// TestKubeconfigList merges the two files KUBECONFIG lists as kubectl
// does: the first file to set the current context, or to name a context,
// wins; the cluster and the user come from the second.
func TestKubeconfigList(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	second := filepath.Join(dir, "second")
	write(t, first, `apiVersion: v1
kind: Config
current-context: test
contexts:
- name: test
  context: {cluster: real, user: u}
`)
	write(t, second, fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: nowhere
clusters:
- name: real
  cluster: {server: %q, certificate-authority-data: %s, tls-server-name: %q}
- name: nowhere
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u
  user: {token: %q}
contexts:
- name: test
  context: {cluster: nowhere, user: u}
- name: nowhere
  context: {cluster: nowhere, user: u}
`, server.Config.Host, base64.StdEncoding.EncodeToString(server.Config.CAData), server.Config.ServerName, server.Config.BearerToken))
	for _, c := range []struct {
		files       []string
		cluster     string
		unreachable bool
	}{
		{[]string{first, second}, "test", false},
		{[]string{second, first}, "nowhere", true},
	} {
		t.Setenv("KUBECONFIG", strings.Join(c.files, string(os.PathListSeparator)))
		r, err := cluster.Open(cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cluster != c.cluster {
			t.Errorf("KUBECONFIG=%s: Cluster = %q, want %q", os.Getenv("KUBECONFIG"), r.Cluster, c.cluster)
		}
		_, err = r.CRDs(context.Background(), cluster.Selection{Names: []string{"gateways.networking.example.com"}})
		if errors.Is(err, cluster.ErrUnreachable) != c.unreachable {
			t.Errorf("KUBECONFIG=%s: CRDs() = %v, want unreachable %t", os.Getenv("KUBECONFIG"), err, c.unreachable)
		}
	}
}

// TestKubeconfigErrors names the kubeconfig and what is wrong with it.
func TestKubeconfigErrors(t *testing.T) {
	dir := t.TempDir()
	noCurrent := filepath.Join(dir, "no-current")
	write(t, noCurrent, `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1"}
contexts:
- name: b
  context: {cluster: c}
- name: a
  context: {cluster: gone}
`)
	broken := filepath.Join(dir, "broken")
	write(t, broken, "clusters: [\n")
	missing := filepath.Join(dir, "missing")
	// Not in a pod: the service account's host is the sign of one.
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	for _, c := range []struct {
		name       string
		kubeconfig string // KUBECONFIG when opts.Kubeconfig is empty
		opts       cluster.Options
		want       string
	}{
		{"a missing context", "", cluster.Options{Kubeconfig: kubeconfigFile, Context: "nope"},
			"kubeconfig " + kubeconfigFile + `: no context "nope" (contexts: test)`},
		{"no current context", "", cluster.Options{Kubeconfig: noCurrent},
			"kubeconfig " + noCurrent + ": no current context, and none given (contexts: a, b)"},
		{"a context without its cluster", "", cluster.Options{Kubeconfig: noCurrent, Context: "a"},
			"kubeconfig " + noCurrent + `: context "a": no cluster "gone"`},
		{"a missing file", "", cluster.Options{Kubeconfig: missing},
			"kubeconfig " + missing + ": no such file"},
		{"files that are all missing", missing + string(os.PathListSeparator) + missing + "2", cluster.Options{},
			"kubeconfig " + missing + ", " + missing + "2: none of these files exists, and this is not a pod of a cluster"},
		{"a file that is not a kubeconfig", "", cluster.Options{Kubeconfig: broken},
			"kubeconfig " + broken + `: error loading config file "` + broken + `": `},
	} {
		t.Setenv("KUBECONFIG", c.kubeconfig)
		_, err := cluster.Open(c.opts)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: Open() = %v, want %s", c.name, err, c.want)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestWrongCredentials reads with a token the server does not know: its
// answer says so, and the cluster was reached.
func TestWrongCredentials(t *testing.T) {
	config := *server.Config
	config.BearerToken = "not-the-token"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := writeKubeconfig(path, "test", &config); err != nil {
		t.Fatal(err)
	}
	r, err := cluster.Open(cluster.Options{Kubeconfig: path})
	if err != nil {
		t.Fatal(err)
	}
	err = readAll(r)
	want := "cluster test: GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions: 401 Unauthorized: Unauthorized"
	if err == nil || err.Error() != want {
		t.Errorf("CRDs() = %v, want %s", err, want)
	}
}
