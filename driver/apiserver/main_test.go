package apiserver

import (
	"fmt"
	"os"
	"testing"
)

// shared is the server of the tests that need one but do not test
// starting and stopping: one per package run.
var shared *Server

func TestMain(m *testing.M) {
	s, err := Start(Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = s
	code := m.Run()
	s.Stop()
	os.Exit(code)
}
