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
//
// On an interrupt, termination, hangup or broken pipe signal the process
// exits at once, after removing the server's temporary directory, which
// would otherwise outlive the run.
func StartForVerify(stderr io.Writer, opts *verify.Options, quiet bool) (stop func(), ok bool) {
	start := time.Now()
	srv, err := Start(Options{})
	if err != nil {
		fmt.Fprintf(stderr, "mut2cel verify: cannot start the apiextensions-apiserver: %v\n", err)
		return nil, false
	}
	if !quiet {
		fmt.Fprintf(stderr, "mut2cel verify: started an apiextensions-apiserver in %s\n", time.Since(start).Round(10*time.Millisecond))
	}
	opts.NewJudge = srv.NewJudge
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
	return func() {
		signal.Stop(signals)
		close(done)
		srv.Stop()
	}, true
}
