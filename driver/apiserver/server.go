package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/apimachinery/pkg/util/wait"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
)

// Options configure Start.
type Options struct {
	// Log receives the logs of etcd (errors only) and of the apiserver. Nil
	// keeps the last lines in memory, for the error of a failed start.
	Log io.Writer
	// Configure, when set, is given the server's configuration once the
	// command-line options are applied and before the server is built: to
	// add to its admission chain, as driver/policyserver does.
	Configure func(*genericapiserver.RecommendedConfig) error
}

// Server is an apiextensions-apiserver on an embedded etcd, both in this
// process. Stop it to free its ports and remove its temporary directory.
type Server struct {
	// Config is the server's loopback client configuration: privileged,
	// and without a client-side rate limit.
	Config *rest.Config

	dir     string
	etcd    *embed.Etcd
	cancel  context.CancelCauseFunc
	stopped chan error // the result of the apiserver's run loop
	once    sync.Once
	judges  atomic.Int64 // numbers the judges, for their API groups
}

// startTimeout bounds the wait for the apiserver's /healthz.
const startTimeout = time.Minute

// Start starts etcd and the apiserver. The apiserver's klog output is
// redirected to opts.Log for the rest of the process: klog is global.
func Start(opts Options) (*Server, error) {
	tail := &logTail{}
	log := opts.Log
	if log == nil {
		log = tail
	}
	klog.SetLogger(textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(log))))
	dir, err := os.MkdirTemp("", "mut2cel-apiserver-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	if err := s.start(log, opts.Configure); err != nil {
		s.Stop()
		return nil, tail.annotate(err)
	}
	return s, nil
}

func (s *Server) start(log io.Writer, configure func(*genericapiserver.RecommendedConfig) error) error {
	etcd, endpoint, err := startEtcd(filepath.Join(s.dir, "etcd"), log)
	if err != nil {
		return err
	}
	s.etcd = etcd
	return s.startAPIServer(endpoint, log, configure)
}

// startAPIServer builds the apiserver from its command-line options, runs
// it until Stop, and waits until it is healthy.
func (s *Server) startAPIServer(etcd string, log io.Writer, configure func(*genericapiserver.RecommendedConfig) error) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening on a loopback port: %w", err)
	}
	server, err := newServer(s.dir, etcd, ln, log, configure)
	if err != nil {
		ln.Close()
		return err
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	s.cancel = cancel
	s.stopped = make(chan error, 1)
	go func() {
		s.stopped <- server.GenericAPIServer.PrepareRun().RunWithContext(ctx)
		close(s.stopped)
	}()
	s.Config = rest.CopyConfig(server.GenericAPIServer.LoopbackClientConfig)
	return s.waitHealthy()
}

// waitHealthy polls /healthz until it answers ok, the run loop ends, or
// startTimeout passes.
func (s *Server) waitHealthy() error {
	client, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, startTimeout, true, func(ctx context.Context) (bool, error) {
		select {
		case err := <-s.stopped:
			return false, fmt.Errorf("the apiserver stopped while starting: %v", err)
		default:
		}
		status := 0
		client.CoreV1().RESTClient().Get().AbsPath("/healthz").Do(ctx).StatusCode(&status)
		return status == 200, nil
	})
}

// Stop stops the apiserver, then etcd, and removes the temporary
// directory. It may be called more than once.
func (s *Server) Stop() {
	s.once.Do(func() {
		if s.cancel != nil {
			s.cancel(errors.New("stopping"))
			<-s.stopped
		}
		if s.etcd != nil {
			s.etcd.Close()
		}
		os.RemoveAll(s.dir)
	})
}

// Abandon removes the temporary directory and leaves etcd and the
// apiserver running, for a process about to exit at once (on an
// interrupt): stopping them takes about a second, during which requests
// fail. What they hold open stays usable; exiting frees the ports.
func (s *Server) Abandon() {
	os.RemoveAll(s.dir)
}
