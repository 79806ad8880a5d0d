package cluster

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// Options say which cluster to read, and for how long.
type Options struct {
	// Kubeconfig is the kubeconfig file to read, alone. Empty: the files
	// KUBECONFIG lists, merged, or else ~/.kube/config, as kubectl reads
	// them.
	Kubeconfig string
	// Context is the kubeconfig context to use. Empty: its current
	// context.
	Context string
	// RequestTimeout bounds each request, its response read whole.
	// Zero: DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Timeout bounds all requests of the Reader together, from Open on.
	// Zero: DefaultTimeout.
	Timeout time.Duration
}

const (
	// DefaultRequestTimeout is long enough for the largest document a
	// cluster serves (the OpenAPI document of a group version is built on
	// its first request) and short enough that a server that stopped
	// answering is noticed.
	DefaultRequestTimeout = 30 * time.Second
	// DefaultTimeout is a few slow requests.
	DefaultTimeout = 2 * time.Minute
	// maxInFlight is the most requests a Reader has under way at once.
	maxInFlight = 4
	// userAgent names the reader in the server's logs and audit.
	userAgent = "mut2cel (read-only)"
)

// Reader reads from one cluster. Its methods may be called concurrently.
type Reader struct {
	// Cluster names the cluster in messages: the context's name, or
	// "in-cluster" for a pod's service account.
	Cluster string

	client   *http.Client
	base     *url.URL // the server's URL, with the path it may be served under
	timeout  time.Duration
	deadline time.Time
	slots    chan struct{}
	budget   *budget

	discoveryMu sync.Mutex
	discovery   map[string]string // document name -> server-relative URL
}

// Open reads the kubeconfig and prepares a Reader for the cluster of the
// context. It sends no request: a cluster that cannot be reached is told
// by the first.
func Open(opts Options) (*Reader, error) {
	config, name, err := load(opts.Kubeconfig, opts.Context)
	if err != nil {
		return nil, err
	}
	return newReader(config, name, opts)
}

// newReader makes a Reader of a client configuration.
func newReader(config *rest.Config, name string, opts Options) (*Reader, error) {
	config = rest.CopyConfig(config)
	config.UserAgent = userAgent
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper { return getOnly{rt} })
	client, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %v", name, err)
	}
	base, _, err := rest.DefaultServerUrlFor(config)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: server %q: %v", name, config.Host, err)
	}
	base.Path = strings.TrimSuffix(base.Path, "/")
	r := &Reader{
		Cluster: name,
		client:  client,
		base:    base,
		timeout: orDefault(opts.RequestTimeout, DefaultRequestTimeout),
		slots:   make(chan struct{}, maxInFlight),
		budget:  newBudget(),
	}
	r.deadline = time.Now().Add(orDefault(opts.Timeout, DefaultTimeout))
	return r, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// serverURL is the URL of the server the Reader reads from.
func (r *Reader) serverURL() string { return r.base.String() }

// getOnly refuses every request but GET before it leaves the process:
// the Reader only reads, and this is where that holds for any request,
// whoever builds it.
type getOnly struct{ next http.RoundTripper }

func (g getOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &refusedError{req.Method + " " + req.URL.Path}
	}
	return g.next.RoundTrip(req)
}

// refusedError is a request getOnly refused.
type refusedError struct{ request string }

func (e *refusedError) Error() string { return e.request + " refused: the cluster is only read" }

// acquire waits for a free slot of the requests under way.
func (r *Reader) acquire(ctx context.Context) error {
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Reader) release() { <-r.slots }
