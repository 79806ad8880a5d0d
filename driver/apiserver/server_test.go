package apiserver

import (
	"context"
	"os"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestStartStop starts a second and a third server next to the shared one,
// one after the other, as a program that verifies twice would, and checks
// that each serves and leaves no file behind.
func TestStartStop(t *testing.T) {
	t.Parallel()
	for i := 0; i < 2; i++ {
		s, err := Start(Options{})
		if err != nil {
			t.Fatalf("Start, server %d: %v", i+2, err)
		}
		c, err := clientset.NewForConfig(s.Config)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ApiextensionsV1().CustomResourceDefinitions().List(context.Background(), metav1.ListOptions{}); err != nil {
			t.Errorf("listing CRDs on server %d: %v", i+2, err)
		}
		s.Stop()
		s.Stop()
		if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
			t.Errorf("after Stop, %s: %v, want it removed", s.dir, err)
		}
		if _, err := c.ApiextensionsV1().CustomResourceDefinitions().List(context.Background(), metav1.ListOptions{}); err == nil {
			t.Errorf("server %d still answers after Stop", i+2)
		}
	}
}

// TestLogTail checks what a failed start reports of the server's log: the
// last lines, whole, and no more than tailSize bytes.
func TestLogTail(t *testing.T) {
	var l logTail
	for i := 0; i < 1000; i++ {
		l.Write([]byte("a line of the log\n"))
	}
	l.Write([]byte("the last line\n"))
	err := l.annotate(os.ErrClosed)
	msg := err.Error()
	if want := "file already closed\nlast log lines of the server:\na line of the log\n"; msg[:len(want)] != want {
		t.Errorf("annotate = %q..., want it to start with %q", msg[:len(want)], want)
	}
	if want := "a line of the log\nthe last line"; msg[len(msg)-len(want):] != want {
		t.Errorf("annotate = ...%q, want it to end with %q", msg[len(msg)-len(want):], want)
	}
	if len(msg) > tailSize+100 {
		t.Errorf("annotate kept %d bytes, want at most about %d", len(msg), tailSize)
	}
}

// TestAbandon checks that Abandon removes the directory at once, and that
// the server, abandoned, can still be stopped.
func TestAbandon(t *testing.T) {
	t.Parallel()
	s, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Abandon()
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Errorf("after Abandon, %s: %v, want it removed", s.dir, err)
	}
	s.Stop()
}
