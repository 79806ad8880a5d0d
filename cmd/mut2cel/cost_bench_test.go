package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
)

// BenchmarkCostCorpus times, over the files of the real-world corpus,
// `mut2cel cost --all -o json` as the command runs it (reading and
// decoding every file, translating, estimating every rule, writing the
// report) against what the apiserver does with the same files when they
// are applied: decode each CRD document and run
// ValidateCustomResourceDefinition, which compiles and estimates every
// rule. Besides the time of each, it reports the CPU time the process
// spent (cpu-s/op, garbage collection included), which a busy machine
// changes less. docs/cost.md ("Speed") gives the figures:
//
//	go test ./cmd/mut2cel -run '^$' -bench CostCorpus -count 6 | benchstat -
func BenchmarkCostCorpus(b *testing.B) {
	files := corpus.Files(b)
	b.Run("cost", func(b *testing.B) {
		args := append([]string{"cost", "--all", "-o", "json"}, files...)
		start := cpuTime()
		for b.Loop() {
			if code := run(args, bytes.NewReader(nil), io.Discard, io.Discard); code != exitOK && code != exitFinding {
				b.Fatalf("mut2cel cost: exit %d", code)
			}
		}
		b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("apiserver", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			for _, f := range files {
				validateFile(b, f)
			}
		}
		b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
	})
}

// validateFile decodes the CRD documents of file as the apiserver decodes
// a request, and validates each as it validates a CRD to create.
func validateFile(b *testing.B, file string) {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	reader := utilyaml.NewYAMLReader(bufioReader(f))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(doc, &crd); err != nil || crd.Kind != "CustomResourceDefinition" {
			continue
		}
		if _, err := kube.ValidateCRD(&crd); err != nil {
			b.Fatal(err)
		}
	}
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 1<<16) }
