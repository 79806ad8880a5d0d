package auditrun_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/driver/auditrun"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// auditPlan is the part of testdata/audit/audit.yaml this test reads: the
// corpus files audited by hand in docs/audit.md and, per version, the
// bypasses found there, as "KIND PATH VALUE".
type auditPlan struct {
	CRDs   []auditedFile `json:"crds"`
	Unions []auditedFile `json:"unions"`
}

type auditedFile struct {
	File      string              `json:"file"`
	Published map[string][]string `json:"published"`
}

// TestCorpusNamesEveryBypass audits the whole corpus, as
// mut2cel audit ../shared/corpus does, with no word of where to look, and
// checks that the report names every bypass docs/audit.md found by hand
// (testdata/audit/audit.yaml): for the file and version, a guarantee at
// the path that is not enforced or has holes, with a hole of the kind and
// the declaration found, and a counterexample. With -short, the kueue
// and Karpenter files only.
func TestCorpusNamesEveryBypass(t *testing.T) {
	dir := corpus.Dir(t)
	plan := readPlan(t)
	paths := []string{dir}
	if testing.Short() {
		paths = []string{filepath.Join(dir, "kueue", "kueue.x-k8s.io_localqueues.yaml"), filepath.Join(dir, "kueue", "kueue.x-k8s.io_resourceflavors.yaml"),
			filepath.Join(dir, "karpenter", "autoscaling.x-k8s.io_capacitybuffers.yaml")}
	}
	before := cpuTime()
	start := time.Now()
	out := auditrun.Run(context.Background(), auditrun.Options{Source: inferrun.Source{Paths: paths}, Seed: 1, Jobs: runtime.GOMAXPROCS(0),
		JSON: true, Reporter: batch.Silent{}})
	cpu, took := cpuTime()-before, time.Since(start)
	t.Logf("audited %v in %v (%v of CPU; BenchmarkAuditCorpus measures it): %s", paths, took.Round(time.Millisecond), cpu.Round(time.Millisecond), out.Summary)
	if out.Exit != batch.ExitFinding {
		t.Fatalf("Run = exit %d, %v; want 1", out.Exit, out.Problems)
	}
	r := decode(t, out)
	named, want := 0, 0
	for _, f := range append(plan.CRDs, plan.Unions...) {
		if !audited(paths, filepath.Join(dir, f.File)) {
			continue
		}
		for version, bypasses := range f.Published {
			for _, b := range bypasses {
				want++
				if names(r, f.File, version, b) {
					named++
				} else {
					t.Errorf("%s %s: the report does not name the bypass %q of docs/audit.md", f.File, version, b)
				}
			}
		}
	}
	t.Logf("the report names %d of the %d bypasses docs/audit.md found in these files", named, want)
	if want == 0 {
		t.Error("no bypass of docs/audit.md is in the files audited")
	}
}

func readPlan(t *testing.T) auditPlan {
	t.Helper()
	data, err := os.ReadFile("../../testdata/audit/audit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var plan auditPlan
	if err := yaml.Unmarshal(data, &plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

// audited reports whether file is one of paths or below one.
func audited(paths []string, file string) bool {
	for _, p := range paths {
		if file == p || strings.HasPrefix(file, p+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// names reports whether the report names a bypass of audit.yaml, "KIND
// PATH VALUE" (KIND value, presence, keys, or "union: ..."), of the file
// and version.
func names(r *auditrun.Report, file, version, bypass string) bool {
	words := strings.Split(bypass, " ")
	kind, path, value := words[0], words[1], strings.Join(words[2:], " ")
	if strings.HasPrefix(bypass, "union: ") {
		kind, path, value = strings.Join(words[:3], " "), words[3], strings.Join(words[4:], " ")
	}
	for _, f := range r.Findings {
		if f.Path != path || !strings.Contains(f.Origin, "/"+file+":") || (f.Status != auditrun.NotEnforced && f.Status != auditrun.Holes) {
			continue
		}
		for _, v := range f.Versions {
			for _, h := range v.Holes {
				if v.Version == version && h.Kind == kind && strings.HasSuffix(h.Declaration, ": "+value) && h.Counterexample != nil {
					return true
				}
			}
		}
	}
	return false
}
