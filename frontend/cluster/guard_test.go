package cluster

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
)

// TestGetOnlyRefuses sends every other method through the reader's
// transport: each is refused before the transport below sees it.
func TestGetOnlyRefuses(t *testing.T) {
	var sent []string
	below := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		sent = append(sent, req.Method)
		return httptest.NewRecorder().Result(), nil
	})
	guard := getOnly{below}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions, "WATCH"} {
		req, _ := http.NewRequest(m, "https://cluster.example/apis", strings.NewReader("{}"))
		if _, err := guard.RoundTrip(req); err == nil || !strings.Contains(err.Error(), m+" /apis refused") {
			t.Errorf("RoundTrip(%s) = %v, want refused", m, err)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, "https://cluster.example/apis", nil)
	if _, err := guard.RoundTrip(req); err != nil {
		t.Errorf("RoundTrip(GET) = %v", err)
	}
	if len(sent) != 1 || sent[0] != http.MethodGet {
		t.Errorf("the transport below saw %v, want [GET]", sent)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestReaderClientRefuses sends a POST through the client a Reader reads
// with: the guard is in its transport, and the server never sees it.
func TestReaderClientRefuses(t *testing.T) {
	var mu sync.Mutex // the server's handlers run on goroutines of their own
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, req.Method)
	}))
	defer srv.Close()
	r, err := newReader(&rest.Config{Host: srv.URL}, "fake", Options{})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/apis", strings.NewReader("{}"))
	if _, err := r.client.Do(req); err == nil || !strings.Contains(err.Error(), "POST /apis refused") {
		t.Errorf("POST through the reader's client: %v, want refused", err)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/apis", nil)
	if resp, err := r.client.Do(req); err != nil {
		t.Errorf("GET through the reader's client: %v", err)
	} else {
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != http.MethodGet {
		t.Errorf("the server saw %v, want [GET]", seen)
	}
}
