package infer

import (
	"testing"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// BenchmarkInferCorpus infers every CRD of the corpus, read beforehand,
// once per op: the time of mut2cel infer on ../shared/corpus less the
// reading (docs/infer.md says "well under a minute on two cores").
//
//	go test ./frontend/infer -run '^$' -bench InferCorpus -count 6 | benchstat -
func BenchmarkInferCorpus(b *testing.B) {
	var models []*crd.CRD
	for _, c := range corpus.CRDs(b) {
		m, err := crd.Read(c.Doc)
		if err != nil {
			b.Fatalf("%s: %v", c.File, err)
		}
		models = append(models, m)
	}
	for b.Loop() {
		for _, m := range models {
			Infer(m)
		}
	}
	b.ReportMetric(float64(len(models)), "crds")
}
