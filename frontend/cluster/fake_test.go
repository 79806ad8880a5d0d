package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/frontend/cluster"
)

// fake opens a Reader, context "fake", on a server that answers with h.
func fake(t *testing.T, h http.HandlerFunc, opts cluster.Options) *cluster.Reader {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return openAt(t, srv.URL, opts)
}

// openAt opens a Reader, context "fake", on the server at url.
func openAt(t *testing.T, url string, opts cluster.Options) *cluster.Reader {
	t.Helper()
	opts.Kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	write(t, opts.Kubeconfig, fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: fake
clusters:
- name: fake
  cluster: {server: %q}
contexts:
- name: fake
  context: {cluster: fake}
`, url))
	r, err := cluster.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const listPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// TestUnreachable reads from a port nothing listens on.
func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	err = readAll(openAt(t, url, cluster.Options{}))
	want := "cluster fake: GET " + listPath + ": cannot reach the cluster at " + url + ": dial tcp "
	if !errors.Is(err, cluster.ErrUnreachable) || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("CRDs() = %v, want ErrUnreachable: %s...connection refused", err, want)
	}
}

// TestStatusErrors reports the answer of a server that refuses: the
// apiserver's Status message, or the start of any other body. Nothing is
// retried, not even what the server asks to retry.
func TestStatusErrors(t *testing.T) {
	for _, c := range []struct {
		code         int
		header, body string
		want         string
	}{
		{403, "", `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"customresourcedefinitions.apiextensions.k8s.io is forbidden: User \"u\" cannot list resource","reason":"Forbidden","code":403}`,
			`cluster fake: GET ` + listPath + `: 403 Forbidden: customresourcedefinitions.apiextensions.k8s.io is forbidden: User "u" cannot list resource`},
		{500, "", "boom\n", `cluster fake: GET ` + listPath + `: 500 Internal Server Error: "boom"`},
		{503, "1", "", `cluster fake: GET ` + listPath + `: 503 Service Unavailable`},
	} {
		var requests atomic.Int32
		r := fake(t, func(w http.ResponseWriter, req *http.Request) {
			requests.Add(1)
			if c.header != "" {
				w.Header().Set("Retry-After", c.header)
			}
			w.WriteHeader(c.code)
			fmt.Fprint(w, c.body)
		}, cluster.Options{})
		err := readAll(r)
		if err == nil || err.Error() != c.want || errors.Is(err, cluster.ErrUnreachable) {
			t.Errorf("%d: CRDs() = %v, want %s", c.code, err, c.want)
		}
		if n := requests.Load(); n != 1 {
			t.Errorf("%d: %d requests, want 1: no retry", c.code, n)
		}
	}
}

// TestResponseOverLimit serves a response that never ends: reading stops
// once past the limit of a run, long before the server is done.
func TestResponseOverLimit(t *testing.T) {
	var written atomic.Int64
	r := fake(t, func(w http.ResponseWriter, req *http.Request) {
		chunk := []byte(strings.Repeat(" ", 1<<16))
		for {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}, cluster.Options{})
	err := readAll(r)
	want := "cluster fake: GET " + listPath + ": the response is larger than 64 MiB, the most mut2cel reads in one run (docs/limits.md)"
	if err == nil || err.Error() != want {
		t.Errorf("CRDs() = %v, want %s", err, want)
	}
	if w := written.Load(); w > 80<<20 {
		t.Errorf("the server wrote %d MiB before the reader stopped, want about 64", w>>20)
	}
}

// TestValuesOverLimit serves two responses of 1.1 million values (lists
// of items that are not CRDs, and are skipped): the second passes the limit of a run, counted over both.
func TestValuesOverLimit(t *testing.T) {
	list := `{"items":[` + strings.Repeat("0,", 550_000) + `0]}`
	r := fake(t, func(w http.ResponseWriter, req *http.Request) { fmt.Fprint(w, list) }, cluster.Options{})
	if err := readAll(r); err != nil {
		t.Fatalf("first CRDs() = %v", err)
	}
	err := readAll(r)
	want := "cluster fake: GET " + listPath + ": with the 1 read before it, the response holds more than 2,000,000 values (mapping keys and values, list items), the most mut2cel reads in one run (docs/limits.md)"
	if err == nil || err.Error() != want {
		t.Errorf("second CRDs() = %v, want %s", err, want)
	}
}

// TestTimeouts stops a request the server does not answer, at the
// request's timeout, the Reader's or the caller's, and when the caller
// cancels.
func TestTimeouts(t *testing.T) {
	stall := func(w http.ResponseWriter, req *http.Request) { <-req.Context().Done() }
	for _, c := range []struct {
		name string
		opts cluster.Options
		want string
	}{
		{"request", cluster.Options{RequestTimeout: 100 * time.Millisecond}, "no whole answer within 100ms"},
		{"reader", cluster.Options{Timeout: 100 * time.Millisecond}, "no whole answer within the time given to reading the cluster"},
	} {
		start := time.Now()
		err := readAll(fake(t, stall, c.opts))
		if !errors.Is(err, cluster.ErrUnreachable) || !strings.HasSuffix(err.Error(), c.want) || time.Since(start) > 5*time.Second {
			t.Errorf("%s timeout: CRDs() = %v after %s, want ErrUnreachable: ...%s", c.name, err, time.Since(start), c.want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := fake(t, stall, cluster.Options{}).CRDs(ctx, cluster.Selection{})
	if want := "no whole answer within the caller's deadline"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("caller's deadline: CRDs() = %v, want ...%s", err, want)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = fake(t, stall, cluster.Options{}).CRDs(ctx, cluster.Selection{})
	if !errors.Is(err, context.Canceled) || errors.Is(err, cluster.ErrUnreachable) {
		t.Errorf("cancelled: CRDs() = %v, want context.Canceled", err)
	}
}

// TestConcurrency reads twelve CRDs by name: no more than four requests
// are under way at once.
func TestConcurrency(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	r := fake(t, func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
	}, cluster.Options{})
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("c%02d.example.com", i))
	}
	_, err := r.CRDs(context.Background(), cluster.Selection{Names: names})
	if err == nil || strings.Count(err.Error(), "no CRD named") != 12 {
		t.Errorf("CRDs() = %v, want the 12 not found", err)
	}
	if most > 4 || most < 2 {
		t.Errorf("at most %d requests under way at once, want 4", most)
	}
}

// TestOpenAPIUnderPath reads the core group's document from a server
// served under a path of its own, at the URL its list gives, hash
// included.
func TestOpenAPIUnderPath(t *testing.T) {
	var mu sync.Mutex // the server's handlers run on goroutines of their own
	var seen []string
	note := func(req *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, req.URL.String())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/k8s/clusters/c1/openapi/v3", func(w http.ResponseWriter, req *http.Request) {
		note(req)
		fmt.Fprint(w, `{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=ABC"}}}`)
	})
	mux.HandleFunc("/k8s/clusters/c1/openapi/v3/api/v1", func(w http.ResponseWriter, req *http.Request) {
		note(req)
		fmt.Fprint(w, `{"openapi":"3.0.0","components":{"schemas":{}}}`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	doc, err := openAt(t, srv.URL+"/k8s/clusters/c1", cluster.Options{}).OpenAPI(context.Background(), schema.GroupVersion{Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "cluster fake: /openapi/v3/api/v1" {
		t.Errorf("Name = %q, want cluster fake: /openapi/v3/api/v1", doc.Name)
	}
	want := []string{"/k8s/clusters/c1/openapi/v3", "/k8s/clusters/c1/openapi/v3/api/v1?hash=ABC"}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("the server saw %v, want %v", seen, want)
	}
}

// TestNoAnswerOrNoCredentials tells a server that does not answer as a
// server of the cluster (a certificate the kubeconfig does not trust)
// from a failure before any connection (a credential plugin that does
// not run) and from a server that answers in plain HTTP, which the
// kubeconfig's scheme has wrong.
func TestNoAnswerOrNoCredentials(t *testing.T) {
	tlsServer := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsServer.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes it refuses
	tlsServer.StartTLS()
	defer tlsServer.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	for _, c := range []struct {
		name, server, user string
		unreachable        bool
		want               string
	}{
		{"untrusted certificate", tlsServer.URL, "{}", true, "certificate signed by unknown authority"},
		{"no TLS", strings.Replace(plain.URL, "http:", "https:", 1), "{}", false, "server gave HTTP response to HTTPS client"},
		{"no credential plugin", tlsServer.URL, `{exec: {apiVersion: client.authentication.k8s.io/v1, command: /nonexistent/plugin, interactiveMode: Never}}`, false, "getting credentials"},
	} {
		kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
		write(t, kubeconfig, fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: fake
clusters:
- name: fake
  cluster: {server: %q}
users:
- name: u
  user: %s
contexts:
- name: fake
  context: {cluster: fake, user: u}
`, c.server, c.user))
		r, err := cluster.Open(cluster.Options{Kubeconfig: kubeconfig})
		if err != nil {
			t.Fatal(err)
		}
		err = readAll(r)
		if err == nil || errors.Is(err, cluster.ErrUnreachable) != c.unreachable || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CRDs() = %v, want unreachable %t, saying %q", c.name, err, c.unreachable, c.want)
		}
	}
}
