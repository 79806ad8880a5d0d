package verify

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// BenchmarkPairs measures the verifier's throughput on each example, one
// worker, as the command runs it (verify --jobs 1): pairs generated in
// batches, stored, checked for validity (and mended where refused),
// judged by the reference checker and the CEL validator, and recorded.
// Besides pairs/s it reports verify's own time per pair, own-µs/pair: the
// time of a pair less that of the apiserver's CEL validator deciding the
// same stored pair (judge-µs/pair).
//
//	go test ./verify -run '^$' -bench 'Pairs' -count 6 | benchstat -
func BenchmarkPairs(b *testing.B) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		b.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(b *testing.B) {
			benchPairs(b, exampleRun(b, file))
		})
	}
}

// BenchmarkPairsKueueWorkload measures the same on the largest schema of
// the corpus, the 1.4 MB kueue Workload, with two declarations applied to
// both served versions, as verify --all-versions runs them: one
// sub-benchmark per version.
func BenchmarkPairsKueueWorkload(b *testing.B) {
	for _, version := range []string{"v1beta1", "v1beta2"} {
		b.Run(version, func(b *testing.B) { benchPairs(b, workloadRun(b, version)) })
	}
}

// workloadRun prepares the run of a version of the kueue Workload with
// two declarations of v1beta2 applied to both served versions; it skips
// without the corpus.
func workloadRun(tb testing.TB, version string) *versionRun {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(corpus.Dir(tb), "kueue", "kueue.x-k8s.io_workloads.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	doc := decodeYAML(tb, data)
	annotate(doc, "mut2cel.io/declarations", `v1beta2:
  .spec.podSets[*].name: {x-kubernetes-mutability: Immutable}
  .spec.queueName: {x-kubernetes-mutability: Immutable}
`)
	return allVersionsRun(tb, doc, translate.Options{AllServedVersions: true}, version)
}

// benchPairs runs b.N pairs of r and reports the throughput, with the
// garbage collector set as the command sets it (by TestMain, testgc).
func benchPairs(b *testing.B, r *versionRun) {
	defer noTestChecks()()
	judge := &timedJudge{Judge: r.judge}
	r.judge = judge
	r.opts.Pairs, r.opts.Workers = b.N, 1
	runtime.GC() // collect the set-up's garbage first: translating a large CRD makes much
	b.ResetTimer()
	rep, err := r.run()
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if rep.Disagreements > 0 {
		b.Fatalf("%d disagreements", rep.Disagreements)
	}
	perPair := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(b.N) }
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	b.ReportMetric(perPair(judge.spent), "judge-µs/pair")
	b.ReportMetric(perPair(b.Elapsed()-judge.spent), "own-µs/pair")
}

// noTestChecks switches off the checks TestMain switches on, which run the
// whole storage pipeline and validation again on every pair, and returns
// the function that switches them back on.
func noTestChecks() func() {
	store, valid := storeCheck, validityCheck
	storeCheck, validityCheck = nil, nil
	return func() { storeCheck, validityCheck = store, valid }
}

// timedJudge is a Judge that counts the time its Judge takes, on one
// worker.
type timedJudge struct {
	Judge
	spent time.Duration
}

func (j *timedJudge) Update(old, new map[string]interface{}) (bool, []string, error) {
	start := time.Now()
	denied, detail, err := j.Judge.Update(old, new)
	j.spent += time.Since(start)
	return denied, detail, err
}

// BenchmarkValidator measures the apiserver's CEL validator alone on the
// stored pairs of each example, judged by the rules of its translation:
// the bound on BenchmarkPairs that no work of verify's own can pass.
func BenchmarkValidator(b *testing.B) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		b.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(b *testing.B) {
			r := exampleRun(b, file)
			const n = 1000
			olds, news := make([]map[string]interface{}, n), make([]map[string]interface{}, n)
			for i := range olds {
				old, new := r.gen.Next()
				stored, err := kube.RoundTrip(kube.Store(r.s, old))
				if err != nil {
					b.Fatal(err)
				}
				olds[i], news[i] = stored, kube.Store(r.s, new)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := r.judge.Update(olds[i%n], news[i%n]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

// exampleRun prepares the run of the first version of an example's
// translation.
func exampleRun(b testing.TB, file string) *versionRun {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	doc := decodeYAML(b, data)
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := newVersionRun(res.Translated, crdVersions(doc)[0], crdVersions(res.Translated)[0], Options{Seed: 1, NewJudge: newCELJudge})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// allVersionsRun translates doc with opts and prepares the run of version,
// held to the declarations the translation applied to it, as verify
// --all-versions does.
func allVersionsRun(b testing.TB, doc map[string]interface{}, opts translate.Options, version string) *versionRun {
	b.Helper()
	res, err := translate.Translate(doc, opts)
	if err != nil {
		b.Fatal(err)
	}
	declared, err := declread.CRD(res.Translated, nil, false)
	if err != nil {
		b.Fatal(err)
	}
	dv, ok := findVersion(crdVersions(declared), version)
	if !ok {
		b.Fatalf("no version %q", version)
	}
	tv, _ := findVersion(crdVersions(res.Translated), version)
	r, err := newVersionRun(res.Translated, dv, tv, Options{Seed: 1, NewJudge: newCELJudge})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

func decodeYAML(b testing.TB, data []byte) map[string]interface{} {
	b.Helper()
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	return doc
}

func annotate(doc map[string]interface{}, key, value string) {
	meta := doc["metadata"].(map[string]interface{})
	annotations, _ := meta["annotations"].(map[string]interface{})
	if annotations == nil {
		annotations = map[string]interface{}{}
		meta["annotations"] = annotations
	}
	annotations[key] = value
}
