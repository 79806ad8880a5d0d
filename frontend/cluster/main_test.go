package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/mut2cel/mut2cel/driver/apiserver"
)

// The in-process apiserver of the package's tests, started once, with
// the example CRDs installed and published, and a kubeconfig that reaches
// it as the context "test".
var (
	server         *apiserver.Server
	kubeconfigFile string
	received       requestLog
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	s, err := apiserver.Start(apiserver.Options{Configure: func(c *genericapiserver.RecommendedConfig) error {
		build := c.BuildHandlerChainFunc
		c.BuildHandlerChainFunc = func(h http.Handler, c *genericapiserver.Config) http.Handler {
			return received.wrap(build(h, c))
		}
		return nil
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Stop()
	server = s
	dir, err := os.MkdirTemp("", "mut2cel-cluster-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	kubeconfigFile = filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(kubeconfigFile, "test", s.Config); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := installExamples(ctx, s.Config); err != nil {
		fmt.Fprintln(os.Stderr, "installing the examples:", err)
		return 1
	}
	return m.Run()
}

// requestLog records the method of every request the server receives
// from the reader, which names itself in its User-Agent, before the
// server authenticates or routes it: what reached the server, whatever
// the reader's code meant to send.
type requestLog struct {
	mu   sync.Mutex
	seen []string // "METHOD path"
}

const readerAgent = "mut2cel (read-only)"

func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.UserAgent() == readerAgent {
			l.mu.Lock()
			l.seen = append(l.seen, req.Method+" "+req.URL.Path)
			l.mu.Unlock()
		}
		next.ServeHTTP(w, req)
	})
}

// take returns what was recorded, and forgets it.
func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.seen
	l.seen = nil
	return out
}
