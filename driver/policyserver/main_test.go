package policyserver

import (
	"fmt"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mut2cel/mut2cel/driver/apiserver"
)

// The label of the namespace the judges write in, which the bindings of
// TestPolicyNamespaceSelector select or not.
const namespaceLabel, namespaceValue = "mut2cel.io/test", "yes"

// shared is the server of the package's tests, started once per run.
var shared *Server

func TestMain(m *testing.M) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: apiserver.Namespace, Labels: map[string]string{namespaceLabel: namespaceValue}}}
	s, err := Start(Options{Objects: []runtime.Object{ns}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared = s
	code := m.Run()
	s.Stop()
	os.Exit(code)
}
