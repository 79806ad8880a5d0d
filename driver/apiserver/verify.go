package apiserver

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mut2cel/mut2cel/verify"
)

// StartForVerify starts the apiserver of verify --server and makes it the
// judge of opts. It returns the function that stops the server, or false
// when it cannot start, which it reports.
func StartForVerify(stderr io.Writer, opts *verify.Options, quiet bool) (stop func(), ok bool) {
	srv, stop, ok := RunForVerify(stderr, quiet, "an apiextensions-apiserver", func() (*Server, error) { return Start(Options{}) })
	if !ok {
		return nil, false
	}
	opts.NewJudge = srv.NewJudge
	return stop, true
}

// RunForVerify starts what start starts, the server of verify --server,
// named what, says how long it took unless quiet, and returns it with the
// function that stops it, or false when it cannot start, which it
// reports.
//
// On an interrupt, termination, hangup or broken pipe signal the process
// exits at once, after removing the server's temporary directory, which
// would otherwise outlive the run.
func RunForVerify(stderr io.Writer, quiet bool, what string, start func() (*Server, error)) (srv *Server, stop func(), ok bool) {
	began := time.Now()
	srv, err := start()
	if err != nil {
		fmt.Fprintf(stderr, "mut2cel verify: cannot start %s: %v\n", what, err)
		return nil, nil, false
	}
	if !quiet {
		fmt.Fprintf(stderr, "mut2cel verify: started %s in %s\n", what, time.Since(began).Round(10*time.Millisecond))
	}
	signals := make(chan os.Signal, 1)
	// SIGPIPE too: output piped into head would otherwise end the process
	// without a word, leaving the directory behind.
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			srv.Abandon()
			fmt.Fprintf(stderr, "mut2cel verify: %v\n", sig)
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return srv, func() {
		signal.Stop(signals)
		close(done)
		srv.Stop()
	}, true
}
