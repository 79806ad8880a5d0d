package policyserver

import (
	"flag"
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
	// The tests wait on the server (etcd, the plugins' recompiles, the
	// mutating plugin's five-second read of the OpenAPI documents) more
	// than they compute: unless -parallel is given, more of them run at
	// once than the cores.
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "8")
	}
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
