package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
)

// BenchmarkRealDeclarations translates each case of testdata/real, bound
// search and CRD validation included, as translate does for a user:
//
//	go test ./translate -run '^$' -bench Real -count 6 | benchstat -
func BenchmarkRealDeclarations(b *testing.B) {
	for _, c := range corpus.Cases(b) {
		doc := c.Declared(b)
		opts := translate.Options{AllServedVersions: c.AllVersions}
		if c.KubeVersion != "" {
			v, err := translate.ParseKubeVersion(c.KubeVersion)
			if err != nil {
				b.Fatal(err)
			}
			opts.KubeVersion = v
		}
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				translate.Translate(doc, opts) // refusals are results too
			}
		})
	}
}
