// Package kubebuilder holds the test that regenerates the example's CRDs:
// controller-gen's output from api/, and what mut2cel makes of it.
package kubebuilder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/markers"
	"github.com/mut2cel/mut2cel/testkit/controllergen"
	"github.com/mut2cel/mut2cel/testkit/fidelity"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/translate"
)

// TestGenerate runs the kubebuilder workflow on api/: controller-gen
// writes the CRD (kept in testdata/controller-gen, which the e2e tests
// install to show what its rules let through), and mut2cel translate
// --markers ./api/... rewrites it (kept in config/crd/bases, what a
// project commits). Both must be what the committed files hold, byte for
// byte; go test -update rewrites them. Translating the result again must
// change nothing.
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := controllergen.Generate(dir, "./api/..."); err != nil {
		t.Fatal(err)
	}
	r, err := markers.Load("", "./api/...")
	if err != nil {
		t.Fatal(err)
	}
	opts := translate.Options{Declarations: r.Sets}
	// As the command's translateMarked: controller-gen's rules for
	// +k8s:immutable come out before translation, and their removal goes
	// first in the result.
	tr := func(doc map[string]interface{}) (*translate.Result, error) {
		without, edits, warnings, err := r.ControllerGenRules(doc)
		if err != nil {
			return nil, err
		}
		res, err := translate.Translate(without, opts)
		if err != nil {
			return nil, err
		}
		res.Edits, res.Warnings = append(edits, res.Edits...), append(warnings, res.Warnings...)
		return res, nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) == 0 {
		t.Fatal("controller-gen wrote no CRD")
	}
	for _, file := range files {
		name := filepath.Base(file)
		generated, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "controller-gen", name), generated)

		res := batch.Translate(batch.Input{Name: name, Data: generated}, tr)
		if len(res.Diags) > 0 {
			t.Fatalf("translating %s: %v", name, res.Diags)
		}
		replaced := 0
		for _, w := range res.Warnings {
			if strings.Contains(w.Detail, "replaced controller-gen's rule") {
				replaced++
			}
		}
		if replaced != 4 { // zone's field and parent rules, bucket's field rule, credentials' ExactlyOneOf
			t.Errorf("translating %s: %d controller-gen rules replaced, want 4: %v", name, replaced, res.Warnings)
		}
		golden.Check(t, filepath.Join("config", "crd", "bases", name), res.Output())
		// Outside the edits (rules added, controller-gen's rules replaced,
		// the annotations), controller-gen's lines stay as they were:
		// folded descriptions included.
		fidelity.Check(t, name, generated, res.Output(), fidelity.RuleLines(generated))
		for _, d := range res.File.Docs {
			if d.Reformatted() {
				t.Errorf("translating %s re-encoded document %d", name, d.Index()+1)
			}
		}

		again := batch.Translate(batch.Input{Name: name, Data: res.Output()}, tr)
		if len(again.Diags) > 0 || len(again.Warnings) > 0 || again.Changed() {
			t.Errorf("translating %s again: changed %v, diagnostics %v, warnings %v; want nothing", name, again.Changed(), again.Diags, again.Warnings)
		}
	}
}
