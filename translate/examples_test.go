package translate_test

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// TestExamplesAtEveryVersion translates every shipped example for every
// supported Kubernetes version and runs the apiserver's CRD validation on the
// result.
func TestExamplesAtEveryVersion(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]interface{}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, v := range testcrd.KubeVersions(t) {
			res, err := translate.Translate(doc, translate.Options{KubeVersion: v})
			if err != nil {
				t.Errorf("Translate(%s, %s): %v", file, v, err)
				continue
			}
			if !res.Changed() {
				t.Errorf("Translate(%s, %s) made no change; every example declares something", file, v)
			}
			errs, err := kube.ValidateCRD(typedCRD(t, res.Translated))
			if err != nil || len(errs) > 0 {
				t.Errorf("Translate(%s, %s) fails CRD validation: %v %v", file, v, err, errs)
			}
		}
	}
}
