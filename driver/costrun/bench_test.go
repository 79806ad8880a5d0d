package costrun_test

import (
	"encoding/json"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/driver/costrun"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// BenchmarkCorpus compares, over every CRD of the real-world corpus, the
// cost audit (translate, then estimate every rule) with the apiserver's own
// ValidateCustomResourceDefinition, which compiles and estimates the same
// rules when a CRD is applied. Both start from decoded documents.
//
//	go test ./driver/costrun -run '^$' -bench Corpus -count 6 | benchstat -
func BenchmarkCorpus(b *testing.B) {
	crds := corpus.CRDs(b)
	b.Run("audit", func(b *testing.B) {
		opts := translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 37}}
		for b.Loop() {
			for _, c := range crds {
				if _, err := costrun.Document(c.File, c.Index, c.Doc, opts, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(len(crds)), "crds/op")
	})
	b.Run("apiserver", func(b *testing.B) {
		typed := make([]*apiextensionsv1.CustomResourceDefinition, len(crds))
		for i, c := range crds {
			data, _ := json.Marshal(c.Doc)
			typed[i] = &apiextensionsv1.CustomResourceDefinition{}
			if err := json.Unmarshal(data, typed[i]); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			for _, crd := range typed {
				if _, err := kube.ValidateCRD(crd); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(len(crds)), "crds/op")
	})
}
