package policyserver

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/driver/policyjudge"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// serverPairs is how many pairs each run of TestVerifyRunThroughServer
// judges: each costs a few requests through the server.
func serverPairs() int {
	if testing.Short() {
		return 40
	}
	return 300
}

// TestVerifyRunThroughServer runs verify's runs of --normalize and
// --policy twice, in process and through the shared server's admission
// chain, as verify --server runs them, and wants the same report, byte
// for byte. The normalizing policies of the kubebuilder example's unions
// (one with a discriminator, one without) run in the MutatingAdmissionPolicy
// plugin, and what the server stores must be the reference normalizer's
// object on every request; the validating policies of ports.yaml and
// unions.yaml must be decided by the ValidatingAdmissionPolicy plugin as
// in process, and both by the reference checker.
func TestVerifyRunThroughServer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, path string
		normalize  bool
	}{
		{"normalize the kubebuilder example", "../../examples/kubebuilder/config/crd/bases/storage.example.com_volumes.yaml", true},
		{"policy of ports.yaml", "../../examples/ports.yaml", false},
		{"policy of unions.yaml", "../../examples/unions.yaml", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			inProcess, want := runVerify(t, c.path, c.normalize, false)
			start := time.Now()
			served, got := runVerify(t, c.path, c.normalize, true)
			t.Logf("%d pairs through the server in %s", serverPairs(), time.Since(start).Round(time.Millisecond))
			if got != batch.ExitOK || want != batch.ExitOK || served != inProcess {
				t.Errorf("through the server, exit %d:\n%s\nin process, exit %d:\n%s", got, served, want, inProcess)
			}
		})
	}
}

// runVerify runs verify --policy, or --normalize, on path, in process or
// through the shared server, and returns its report.
func runVerify(t *testing.T, path string, normalize, server bool) (string, batch.Exit) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	start := func(io.Writer, bool) (verifyrun.PolicyJudges, func(), bool) { return shared, func() {}, true }
	code := verifyrun.Run(verifyrun.Options{
		Translate: translate.Options{KubeVersion: translate.DefaultKubeVersion},
		Run:       inputs.Run{Paths: []string{path}, Reporter: batch.Silent{}},
		Policy:    !normalize, Normalize: normalize, Server: server, StartPolicyServer: start, PolicyJudges: policyjudge.InProcess{},
		Verify: verify.Options{Pairs: serverPairs(), Seed: 1, Counterexamples: 3},
		Quiet:  true, Format: "text", Stdout: &stdout, Stderr: &stderr, Text: func(w io.Writer) io.Writer { return w },
	})
	if stderr.Len() > 0 {
		t.Logf("stderr (server %v): %s", server, stderr.String())
	}
	return stdout.String(), code
}

// refusingSchema has a union without a discriminator that the CRD's own
// rule also states, and a required field with an enum: most generated
// objects are refused by the server unless mended as verify mends them.
const refusingSchema = `
type: object
properties:
  spec:
    type: object
    required: [mode]
    x-kubernetes-validations:
    - rule: "!(has(self.price) && has(self.adjustment))"
      message: cannot set both
    x-kubernetes-unions:
    - fields-to-discriminateBy: {price: "", adjustment: ""}
    properties:
      mode: {type: string, enum: [A, B]}
      price: {type: string, maxLength: 8}
      adjustment: {type: string, maxLength: 8}
`

// TestNormalizeSetAside runs verify --normalize through the server on a
// CRD whose schema and own rule refuse most generated objects: the pairs
// are mended until the server can hold the old object and store the
// reference's, so that at most verify.MaxSetAside of the requests are set
// aside, and none disagrees.
func TestNormalizeSetAside(t *testing.T) {
	t.Parallel()
	data, err := yaml.Marshal(testcrd.WithSchema(t, refusingSchema))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "widgets.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	inProcess, want := runVerify(t, path, true, false)
	served, got := runVerify(t, path, true, true)
	if want != batch.ExitOK || got != batch.ExitOK || !strings.Contains(served, "no disagreement") {
		t.Errorf("through the server, exit %d:\n%s\nin process, exit %d:\n%s", got, served, want, inProcess)
	}
	t.Logf("through the server: %s", served)
}
