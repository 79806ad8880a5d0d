package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/translate"
)

// BenchmarkPairs measures the verifier's throughput on each example: a pair
// generated, run through the storage pipeline and judged by the reference
// checker and the CEL validator.
func BenchmarkPairs(b *testing.B) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		b.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(b *testing.B) {
			r := exampleRun(b, file)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				old, new := r.gen.Next()
				v, err := r.compare(old, new)
				if err != nil {
					b.Fatal(err)
				}
				if v.outcome == disagreed || v.outcome == evalFailed {
					b.Fatalf("disagreement on %v -> %v", old, new)
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
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		b.Fatal(err)
	}
	crd, err := typedCRD(res.Translated)
	if err != nil {
		b.Fatal(err)
	}
	r, err := newVersionRun(res.Translated, crd.Spec.Versions[0].Schema, crdVersions(doc)[0], crdVersions(res.Translated)[0], Options{Seed: 1, NewJudge: newCELJudge})
	if err != nil {
		b.Fatal(err)
	}
	return r
}
