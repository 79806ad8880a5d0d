package verifyrun

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// TestVerifyJudgeFails checks that a judge that fails, as the server of
// --server does when it refuses a CRD its validation in process accepts,
// is reported as an internal error, not as bad input, and exits 2 like
// any run that could not be done: 1 is kept for disagreements.
func TestVerifyJudgeFails(t *testing.T) {
	var stdout, stderr bytes.Buffer
	refused := func(verify.Target) (verify.Judge, error) {
		return nil, errors.New(`creating CRD gateways.j1.networking.example.com: it is invalid`)
	}
	code := Run(Options{Translate: translate.Options{KubeVersion: translate.DefaultKubeVersion},
		Run: inputs.Run{Paths: []string{"../../examples/ports.yaml"}, Reporter: batch.Silent{}}, Verify: verify.Options{Pairs: 10, NewJudge: refused},
		Quiet: true, Format: "text", Stdout: &stdout, Stderr: &stderr, Text: func(w io.Writer) io.Writer { return w }})
	want := `../../examples/ports.yaml:1: document 1 (CustomResourceDefinition/gateways.networking.example.com): ` +
		`internal error of the apiextensions-apiserver of --server, not a problem of the input: ` +
		`the judge of version "v1" failed: creating CRD gateways.j1.networking.example.com: it is invalid;` + "\n" +
		`  verify without --server checks the same rules with the apiserver's validator in process` + "\n"
	if code != batch.ExitError || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("Run with a failing judge = %d, stdout %q, stderr %q; want %d, stderr %q", code, stdout.String(), stderr.String(), batch.ExitError, want)
	}
}
