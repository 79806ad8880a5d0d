//go:build server

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// TestVerifyServer runs verify --server, in a binary built with the server
// tag: the server must reach the verdicts of verify in process.
func TestVerifyServer(t *testing.T) {
	t.Parallel()
	for _, c := range []runCase{{
		name: "translation of an example, judged by a real server", args: []string{"verify", "-q", "--server", "--pairs", "300", "../../examples/ports.yaml"},
		stdout: "verify-ports.golden",
	}, {
		name: "broken translation, judged by a real server", args: []string{"verify", "--server", "--pairs", "300", "--against", brokenSet + "translated.yaml", brokenSet + "declared.yaml"},
		code: exitFinding, stdout: "verify-broken.golden",
		stderr: []string{"mut2cel verify: started an apiextensions-apiserver in ", "mut2cel verify: 42 disagreements in 300 pairs"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkRun(t, c)
		})
	}
}

// TestVerifyServerProtectedGroup verifies, on a real server, a CRD of a
// protected group from the corpus, with a declaration in its annotation:
// the judge's copies of it must keep its api-approved.kubernetes.io
// annotation. GatewayClass serves v1 and v1beta1 without conversion, so
// both are declared.
func TestVerifyServerProtectedGroup(t *testing.T) {
	t.Parallel()
	immutable := map[string]map[string]interface{}{".spec.controllerName": {"x-kubernetes-mutability": "Immutable"}}
	c := corpus.Case{
		File:         "gateway-api/standard/gateway.networking.k8s.io_gatewayclasses.yaml",
		Declarations: map[string]map[string]map[string]interface{}{"v1": immutable, "v1beta1": immutable},
	}
	data, err := yaml.Marshal(c.Declared(t))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "gatewayclasses.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	checkRun(t, runCase{
		args: []string{"verify", "-q", "--server", "--pairs", "50", file},
		stdout: file + ":1: gatewayclasses.gateway.networking.k8s.io v1: 50 pairs, 50 judged, no disagreement; 1 constraint, all tested\n" +
			"    judged violating disagreements  declaration\n" +
			"        50        21             0  x-kubernetes-mutability: Immutable at .spec.controllerName\n" +
			file + ":1: gatewayclasses.gateway.networking.k8s.io v1beta1: 50 pairs, 50 judged, no disagreement; 1 constraint, all tested\n" +
			"    judged violating disagreements  declaration\n" +
			"        50        21             0  x-kubernetes-mutability: Immutable at .spec.controllerName\n",
	})
}

// TestVerifyServerPolicies runs verify --policy and verify --normalize
// with --server, whose server runs the policies in its admission chain,
// and wants the report of the same run in process, byte for byte: the
// validating policies of an example decided by the server's
// ValidatingAdmissionPolicy plugin, the normalizing policies of the
// kubebuilder example's unions by its MutatingAdmissionPolicy plugin.
func TestVerifyServerPolicies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"policy", []string{"verify", "--policy", "--pairs", "200", "../../examples/ports.yaml"}},
		{"normalize", []string{"verify", "--normalize", "--pairs", "100", "../../examples/kubebuilder/config/crd/bases/storage.example.com_volumes.yaml"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want, code, _ := runText(t, append(c.args, "-q"))
			got, served, stderr := runText(t, append(c.args, "--server"))
			if code != exitOK || served != exitOK || got != want {
				t.Errorf("with --server, exit %d:\n%s\nin process, exit %d:\n%s", served, got, code, want)
			}
			if !strings.HasPrefix(stderr, "mut2cel verify: started an apiextensions-apiserver with the admission-policy plugins in ") {
				t.Errorf("stderr with --server: %q", stderr)
			}
		})
	}
}

// handWritten is a policy that compares the listeners' protocols by
// position and fails on an object without spec: verify --against-policy
// finds both.
const handWritten = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: listener-protocol-fixed}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [networking.example.com], apiVersions: [v1], operations: [UPDATE], resources: [gateways]}
  validations:
  - expression: object.spec.listeners.map(l, l.protocol) == oldObject.spec.listeners.map(l, l.protocol)
    message: the protocol of a listener is fixed
`

// TestVerifyServerAgainstPolicy runs verify --against-policy with
// --server: the hand-written policy, bound to deny by the server's judge
// as the in-process judge treats it, must disagree with the checker on
// the same pairs, in the same groups, as in process. The counterexamples,
// left out, would differ only in the messages, which the server's plugin
// prefixes with the names of the policy and binding.
func TestVerifyServerAgainstPolicy(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "handwritten.yaml")
	if err := os.WriteFile(file, []byte(handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"verify", "--against-policy", file, "--pairs", "200", "--counterexamples", "0", "../../examples/ports.yaml"}
	want, code, _ := runText(t, append(args, "-q"))
	got, served, _ := runText(t, append(args, "-q", "--server"))
	if code != exitFinding || served != exitFinding || got != want || !strings.Contains(got, "evaluation error") {
		t.Errorf("with --server, exit %d:\n%s\nin process, exit %d:\n%s", served, got, code, want)
	}
}

// runText runs mut2cel with args and returns its standard output, exit
// code and standard error.
func runText(t *testing.T, args []string) (string, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runWith(&env{stdout: &stdout, stderr: &stderr, translate: translate.Translate}, args)
	return stdout.String(), code, stderr.String()
}
