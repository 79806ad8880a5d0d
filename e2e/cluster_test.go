package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/mut2cel/mut2cel/driver/apiserver"
	"github.com/mut2cel/mut2cel/driver/auditrun"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	clusterread "github.com/mut2cel/mut2cel/frontend/cluster"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// clusterFiles are the corpus files installed for TestClusterInferAudit:
// CRDs docs/audit.md found bypasses in, guarantees of every status, three
// served versions alike and not, and the test CRD of infer and audit.
var clusterFiles = []string{
	"kueue/kueue.x-k8s.io_localqueues.yaml",
	"kueue/kueue.x-k8s.io_resourceflavors.yaml",
	"karpenter/autoscaling.x-k8s.io_capacitybuffers.yaml",
	"gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml",
	"external-snapshotter/groupsnapshot.storage.k8s.io_volumegroupsnapshotclasses.yaml",
	"jobset/jobset.x-k8s.io_jobsets.yaml",
}

// TestClusterInferAudit installs corpus CRDs in a real apiextensions-apiserver,
// reaches it through a kubeconfig as kubectl does, and checks that infer
// and audit give from the cluster what they give from the files (audit
// but for where each CRD was read), that every request they sent was a
// GET, and that the CRDs are as they were installed.
func TestClusterInferAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver and audits six CRDs twice")
	}
	dir := corpus.Dir(t)
	var seen requestLog
	srv, err := apiserver.Start(apiserver.Options{Configure: seen.configure})
	if err != nil {
		t.Fatalf("starting the apiextensions-apiserver: %v", err)
	}
	t.Cleanup(srv.Stop)
	files := append([]string{"../testdata/infer/widgets.yaml"}, prefixed(dir, clusterFiles)...)
	crds := readCRDs(t, files)
	versions := installCRDs(t, srv.Config, crds)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	writeKubeconfig(t, kubeconfig, "e2e", srv.Config)

	// The files, in the order of the CRDs' names, as the cluster gives them.
	sort.Slice(crds, func(i, j int) bool { return crds[i].Name() < crds[j].Name() })
	var names, byName []string
	for _, c := range crds {
		names, byName = append(names, c.Name()), append(byName, c.At.File)
	}
	fromFiles := inferrun.Source{Paths: byName}
	fromCluster := inferrun.Source{Cluster: &inferrun.Cluster{Options: clusterread.Options{Kubeconfig: kubeconfig}, Selection: clusterread.Selection{Names: names}}}
	t.Run("infer", func(t *testing.T) { sameInfer(t, fromFiles, fromCluster) })
	t.Run("audit", func(t *testing.T) { sameAudit(t, fromFiles, fromCluster) })
	t.Run("KUBECONFIG and context", func(t *testing.T) {
		t.Setenv("KUBECONFIG", kubeconfig)
		byContext := inferrun.Source{Cluster: &inferrun.Cluster{Options: clusterread.Options{Context: "e2e"}, Selection: clusterread.Selection{Groups: []string{"example.com"}}}}
		out := inferrun.Run(context.Background(), inferrun.Options{Source: byContext, Reporter: batch.Silent{}})
		if out.Exit != batch.ExitOK || !bytes.Contains(out.Stdout, []byte("crd: widgets.example.com")) {
			t.Errorf("infer, context e2e of $KUBECONFIG, group example.com: exit %d, %v\n%s", out.Exit, out.Problems, out.Stdout)
		}
	})
	checkOnlyRead(t, &seen, srv.Config, versions)
}

func prefixed(dir string, files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Join(dir, f)
	}
	return out
}

// sameInfer: the declarations proposed from the cluster are those proposed
// from the files, byte for byte.
func sameInfer(t *testing.T, files, live inferrun.Source) {
	a := inferrun.Run(context.Background(), inferrun.Options{Source: files, Reporter: batch.Silent{}})
	b := inferrun.Run(context.Background(), inferrun.Options{Source: live, Reporter: batch.Silent{}})
	if a.Exit != batch.ExitOK || b.Exit != batch.ExitOK {
		t.Fatalf("infer: exit %d (%v) from the files, %d (%v) from the cluster", a.Exit, a.Problems, b.Exit, b.Problems)
	}
	if !bytes.Equal(a.Stdout, b.Stdout) || a.Summary != b.Summary {
		t.Errorf("infer from the cluster:\n%s\n%s\nfrom the files:\n%s\n%s", b.Stdout, b.Summary, a.Stdout, a.Summary)
	}
	t.Log(b.Summary)
}

// sameAudit: the audit of the cluster is that of the files, but for the
// origins, and a finding (exit 1).
func sameAudit(t *testing.T, files, live inferrun.Source) {
	run := func(src inferrun.Source) (batch.Outcome, []byte) {
		out := auditrun.Run(context.Background(), auditrun.Options{Source: src, Pairs: 300, Seed: 1, Jobs: 2, JSON: true, Reporter: batch.Silent{}})
		var r auditrun.Report
		if err := json.Unmarshal(out.Stdout, &r); err != nil {
			t.Fatalf("audit: exit %d, %v: %v", out.Exit, out.Problems, err)
		}
		for i := range r.Findings {
			r.Findings[i].Origin = ""
		}
		for i := range r.Notes {
			r.Notes[i].Origin = ""
		}
		data, _ := json.MarshalIndent(r, "", "  ")
		return out, data
	}
	a, fromFiles := run(files)
	b, fromCluster := run(live)
	if a.Exit != batch.ExitFinding || b.Exit != batch.ExitFinding {
		t.Errorf("audit: exit %d from the files, %d from the cluster; want 1", a.Exit, b.Exit)
	}
	if !bytes.Equal(fromFiles, fromCluster) || a.Summary != b.Summary {
		t.Errorf("audit from the cluster:\n%s\nfrom the files:\n%s", fromCluster, fromFiles)
	}
	t.Log(b.Summary)
}

// requestLog records the requests the readers send (their User-Agent is
// the cluster package's), as they reach the server, before it
// authenticates or routes them.
type requestLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *requestLog) configure(c *genericapiserver.RecommendedConfig) error {
	build := c.BuildHandlerChainFunc
	c.BuildHandlerChainFunc = func(h http.Handler, c *genericapiserver.Config) http.Handler {
		next := build(h, c)
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if strings.HasPrefix(req.UserAgent(), "mut2cel") {
				l.mu.Lock()
				l.seen = append(l.seen, req.Method+" "+req.URL.Path)
				l.mu.Unlock()
			}
			next.ServeHTTP(w, req)
		})
	}
	return nil
}

// checkOnlyRead fails on any request of the readers but a GET, and on a
// CRD whose resourceVersion changed since it was installed.
func checkOnlyRead(t *testing.T, seen *requestLog, config *rest.Config, versions map[string]string) {
	t.Helper()
	seen.mu.Lock()
	requests := seen.seen
	seen.mu.Unlock()
	if len(requests) == 0 {
		t.Error("the server saw no request of the readers: the record misses them")
	}
	for _, r := range requests {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the server received %s from mut2cel", r)
		}
	}
	client := clientset.NewForConfigOrDie(config)
	for name, rv := range versions {
		got, err := client.ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), name, metav1.GetOptions{})
		if err != nil || got.ResourceVersion != rv {
			t.Errorf("%s: resourceVersion %s (%v), installed as %s", name, got.ResourceVersion, err, rv)
		}
	}
	t.Logf("%d requests of mut2cel, all GET", len(requests))
}

// readCRDs reads the CRD documents of files as every command does.
func readCRDs(t *testing.T, files []string) []batch.InputCRD {
	t.Helper()
	inputs, diags := batch.Collect(files, nil)
	crds, _, more := batch.CRDs(inputs)
	if diags = append(diags, more...); len(diags) > 0 {
		t.Fatal(diags)
	}
	return crds
}

// installCRDs creates the CRDs as kubectl create does and waits until
// each is established; it returns their resourceVersions once so.
func installCRDs(t *testing.T, config *rest.Config, crds []batch.InputCRD) map[string]string {
	t.Helper()
	client := clientset.NewForConfigOrDie(config)
	ctx := context.Background()
	for _, c := range crds {
		data, _ := json.Marshal(c.Value)
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := json.Unmarshal(data, crd); err != nil {
			t.Fatalf("%s: %v", c.At.File, err)
		}
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", c.At.File, err)
		}
	}
	versions := map[string]string{}
	deadline := time.Now().Add(time.Minute)
	for _, c := range crds {
		for {
			got, err := client.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, c.Name(), metav1.GetOptions{})
			if err == nil && established(got) {
				versions[c.Name()] = got.ResourceVersion
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not established within a minute (%v)", c.Name(), err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return versions
}

func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
			return true
		}
	}
	return false
}

// writeKubeconfig writes a kubeconfig whose context name reaches the
// server of config with its credentials, as a user's would.
func writeKubeconfig(t *testing.T, path, name string, config *rest.Config) {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters[name] = &clientcmdapi.Cluster{Server: config.Host, CertificateAuthorityData: config.CAData, TLSServerName: config.ServerName}
	kc.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: config.BearerToken}
	kc.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	kc.CurrentContext = name
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
}
