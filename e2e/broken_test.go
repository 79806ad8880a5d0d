package e2e

import (
	"bytes"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify"
)

// brokenPairs is the number of updates verified per broken translation;
// each finds its first counterexample within 30 (seed 1), which -short's
// 60 still reach.
func brokenPairs() int {
	if testing.Short() {
		return 60
	}
	return 300
}

const (
	// brokenCounterexamples is how many counterexamples per translation are
	// shrunk and replayed.
	brokenCounterexamples = 3
	brokenSeed            = 1
)

// broken is one deliberately wrong translation under testdata/broken, with
// the server's judge of its only version.
type broken struct {
	name                 string
	declared, translated map[string]interface{}
	s                    *structuralschema.Structural
	judge                verify.Judge
}

// testBroken runs the verifier over each broken translation with the
// apiserver's CEL validator in process, and replays every counterexample
// it reports through the real server: the server must give the verdict and
// the errors the verifier reports, which contradict the reference checker.
// Then it runs the verifier again with the server as its judge, which must
// report the same.
func testBroken(t *testing.T, c *cluster) {
	t.Logf("seed %d, %d pairs per translation", brokenSeed, brokenPairs())
	for _, b := range loadBroken(t, c) {
		b := b
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			opts := verify.Options{Pairs: brokenPairs(), Seed: brokenSeed, Counterexamples: brokenCounterexamples}
			local, err := verify.Verify(b.declared, b.translated, opts)
			if err != nil {
				t.Fatal(err)
			}
			b.replay(t, local)
			start := time.Now()
			opts.NewJudge = func(verify.Target) (verify.Judge, error) { return b.judge, nil }
			remote, err := verify.Verify(b.declared, b.translated, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("verified %d pairs with the server as judge in %s", brokenPairs(), time.Since(start).Round(time.Millisecond))
			sameReport(t, local, remote)
		})
	}
}

// loadBroken reads the broken translations and installs them, all at once:
// the server delays the first create of every new CRD by two seconds.
func loadBroken(t *testing.T, c *cluster) []*broken {
	t.Helper()
	dirs, err := filepath.Glob("../testdata/broken/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no broken translations in ../testdata/broken: %v", err)
	}
	out := make([]*broken, len(dirs))
	errs := make([]error, len(dirs))
	var wg sync.WaitGroup
	for i, dir := range dirs {
		b := &broken{name: filepath.Base(dir), declared: testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml")), translated: testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml"))}
		b.s = onlyVersionSchema(t, b.translated)
		out[i] = b
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i].judge, errs[i] = c.srv.NewJudge(verify.Target{CRD: b.translated, Version: "v1", Schema: b.s})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", out[i].name, err)
		}
	}
	return out
}

// replay judges each counterexample of rep through the server.
func (b *broken) replay(t *testing.T, rep *verify.Report) {
	t.Helper()
	for _, v := range rep.Versions {
		if len(v.Counterexamples) == 0 {
			t.Fatalf("version %s: no counterexample in %d pairs: the translation is not broken enough to test the server", v.Version, v.Pairs)
		}
		for _, ce := range v.Counterexamples {
			confirm(t, b.judge, b.s, ce)
		}
	}
}

// confirm requires the server's verdict on a counterexample to be the one
// the verifier reports, with the same errors, against the checker's.
func confirm(t *testing.T, judge verify.Judge, s *structuralschema.Structural, ce *verify.Counterexample) {
	t.Helper()
	old, err := kube.RoundTrip(kube.Store(s, runtime.DeepCopyJSON(ce.Old)))
	if err != nil {
		t.Fatal(err)
	}
	new := kube.Store(s, runtime.DeepCopyJSON(ce.New))
	denied, detail, err := judge.Update(old, new)
	switch {
	case err != nil:
		t.Errorf("pair %d: the server did not judge it: %v\n%s", ce.Pair, err, ce.YAML())
	case denied != ce.Denied || !reflect.DeepEqual(detail, ce.Errors):
		t.Errorf("pair %d: the server denied=%v with %q; in process denied=%v with %q\n%s", ce.Pair, denied, detail, ce.Denied, ce.Errors, ce.YAML())
	case !ce.EvaluationError && denied == (len(ce.Reference) > 0):
		t.Errorf("pair %d: the server agrees with the reference checker (denied=%v): not a counterexample\n%s", ce.Pair, denied, ce.YAML())
	default:
		t.Logf("pair %d confirmed: the server denied=%v, the reference checker reports %d violations", ce.Pair, denied, len(ce.Reference))
	}
}

// sameReport requires the run judged by the server to find what the run
// judged in process found: the same disagreements, shrunk to the same
// counterexamples. The counts of invalid pairs may differ: the server
// refuses every pair that fails the schema, the verifier in process sets
// apart only those on which the verdicts differ. So may the counts of
// integers sent as floats: on those, the apiserver's CEL fails or returns
// false depending on the order in which it compares fields of a map.
func sameReport(t *testing.T, local, remote *verify.Report) {
	t.Helper()
	if len(local.Versions) != len(remote.Versions) {
		t.Fatalf("%d versions in process, %d with the server", len(local.Versions), len(remote.Versions))
	}
	for i, l := range local.Versions {
		r := remote.Versions[i]
		t.Logf("version %s: in process %d disagreements (first at %d), %d invalid, %d int-as-float; with the server %d (first at %d), %d invalid, %d int-as-float",
			l.Version, l.Disagreements, l.First, l.Invalid, l.IntAsFloat, r.Disagreements, r.First, r.Invalid, r.IntAsFloat)
		if l.Pairs != r.Pairs || l.Disagreements != r.Disagreements || l.First != r.First || len(l.Counterexamples) != len(r.Counterexamples) {
			t.Errorf("version %s: with the server %+v, in process %+v", l.Version, *r, *l)
		}
		for k := 0; k < len(l.Counterexamples) && k < len(r.Counterexamples); k++ {
			if a, b := l.Counterexamples[k].YAML(), r.Counterexamples[k].YAML(); !bytes.Equal(a, b) {
				t.Errorf("version %s: counterexample %d differs\nin process:\n%s\nwith the server:\n%s", l.Version, k+1, a, b)
			}
		}
	}
}

// onlyVersionSchema is the structural schema of a one-version CRD, whose
// version must be v1.
func onlyVersionSchema(t *testing.T, doc map[string]interface{}) *structuralschema.Structural {
	t.Helper()
	vs := typedCRD(t, doc).Spec.Versions
	if len(vs) != 1 || vs[0].Name != "v1" || vs[0].Schema == nil {
		t.Fatalf("want one version v1 with a schema, got %d versions", len(vs))
	}
	s, err := kube.Structural(vs[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
