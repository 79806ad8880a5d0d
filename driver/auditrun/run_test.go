package auditrun_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/auditrun"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

const widgets = "../../testdata/infer/widgets.yaml"

func audit(t *testing.T, o auditrun.Options, paths ...string) batch.Outcome {
	t.Helper()
	o.Source = inferrun.Source{Paths: paths}
	o.Reporter = batch.Silent{}
	if o.Pairs == 0 {
		o.Pairs = 300
	}
	return auditrun.Run(context.Background(), o)
}

// TestWidgets audits the test CRD, whose fields are documented and
// guarded each in another way, and keeps the text report in a golden
// file: a field with no rule is not enforced, one whose rule misses its
// presence has holes, the rest are enforced, the conditional sentence is
// not checked. It is a finding.
func TestWidgets(t *testing.T) {
	out := audit(t, auditrun.Options{Seed: 1}, widgets)
	if out.Exit != batch.ExitFinding {
		t.Fatalf("Run = exit %d (%v), want 1", out.Exit, out.Problems)
	}
	golden.Check(t, filepath.Join("testdata", "widgets.golden"), out.Stdout)
	want := "mut2cel audit: 1 CRD read; 5 guarantees documented by 1 CRD: 1 not enforced, 1 with holes, 3 enforced; 1 proposal not sure, not checked"
	if out.Summary != want {
		t.Errorf("Summary = %q, want %q", out.Summary, want)
	}
	r := decode(t, audit(t, auditrun.Options{Seed: 1, JSON: true}, widgets))
	got := map[string]string{}
	for _, f := range r.Findings {
		got[f.Path] = f.Status
	}
	for path, status := range map[string]string{
		".spec.owner": auditrun.NotEnforced, ".spec.class": auditrun.Holes, ".spec.region": auditrun.Enforced,
		".spec.token": auditrun.Enforced, ".spec": auditrun.Enforced, ".spec.size": auditrun.Unsure,
	} {
		if got[path] != status {
			t.Errorf("%s: status %q, want %q", path, got[path], status)
		}
	}
	for _, f := range r.Findings {
		for _, v := range f.Versions {
			for _, h := range v.Holes {
				if h.Counterexample == nil {
					t.Errorf("%s %s: a hole (%s) without a counterexample", f.Path, v.Version, h.Kind)
				}
			}
		}
	}
}

// TestJobs: the report does not depend on how many CRDs are audited at
// once.
func TestJobs(t *testing.T) {
	paths := []string{widgets, "../../examples/gatewayclass.yaml", "../../examples/snapshot.yaml"}
	one := audit(t, auditrun.Options{Seed: 3, Jobs: 1, Pairs: 200}, paths...)
	three := audit(t, auditrun.Options{Seed: 3, Jobs: 3, Pairs: 200}, paths...)
	if string(one.Stdout) != string(three.Stdout) || one.Exit != three.Exit {
		t.Errorf("with 1 job:\n%s\nwith 3:\n%s", one.Stdout, three.Stdout)
	}
}

// TestNoCRD: inputs without a CRD cannot be audited (exit 2): nothing
// checked is not a check passed.
func TestNoCRD(t *testing.T) {
	out := audit(t, auditrun.Options{}, "../../cmd/mut2cel/testdata/configmap.yaml")
	if out.Exit != batch.ExitError || len(out.Problems) != 1 || !strings.Contains(out.Problems[0].Detail, "no CustomResourceDefinition") {
		t.Errorf("Run = exit %d, %v; want 2 and no CRD", out.Exit, out.Problems)
	}
}

func decode(t *testing.T, out batch.Outcome) *auditrun.Report {
	t.Helper()
	var r auditrun.Report
	if err := json.Unmarshal(out.Stdout, &r); err != nil {
		t.Fatalf("the JSON report does not decode: %v\n%s", err, out.Stdout)
	}
	return &r
}
