package verify

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// TestDifferentialExamples generates random updates for every shipped
// example and checks that the translated rules, run by the apiserver's CEL
// validator, deny exactly what the reference checker denies.
func TestDifferentialExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]interface{}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		for _, v := range []translate.KubeVersion{{Major: 1, Minor: 31}, {Major: 1, Minor: 33}} {
			t.Run(fmt.Sprintf("%s/%s", filepath.Base(file), v), func(t *testing.T) {
				differential(t, doc, v, 400)
			})
		}
	}
}

func differential(t *testing.T, doc map[string]interface{}, v translate.KubeVersion, pairs int) {
	t.Helper()
	res, err := translate.Translate(doc, translate.Options{KubeVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	raw := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	checker, err := NewChecker(raw)
	if err != nil {
		t.Fatal(err)
	}
	s := translatedStructural(t, res.Translated)
	const seed = 1
	t.Logf("seed %d", seed)
	g := newGenerator(seed)
	disagreements := 0
	for i := 0; i < pairs && disagreements < 3; i++ {
		old := g.value(s).(map[string]interface{})
		nw := old
		for n := 1 + g.rnd.Intn(3); n > 0; n-- {
			nw = g.mutate(nw, s).(map[string]interface{})
		}
		storedOld, err := kube.RoundTrip(kube.Store(s, deepCopyJSON(t, old)))
		if err != nil {
			t.Fatal(err)
		}
		storedNew := kube.Store(s, deepCopyJSON(t, nw))
		celErrs := kube.ValidateUpdate(s, deepCopyJSON(t, storedNew), deepCopyJSON(t, storedOld))
		violations := checker.Check(storedOld, storedNew)
		if (len(celErrs) > 0) != (len(violations) > 0) {
			disagreements++
			o, _ := json.Marshal(storedOld)
			n, _ := json.Marshal(storedNew)
			t.Errorf("pair %d disagrees:\nold %s\nnew %s\nCEL: %v\nreference: %v", i, o, n, celErrs, violations)
		}
	}
}

func translatedStructural(t *testing.T, doc map[string]interface{}) *schema.Structural {
	t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	data, _ := json.Marshal(doc)
	if err := json.Unmarshal(data, crd); err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func deepCopyJSON(t *testing.T, m map[string]interface{}) map[string]interface{} {
	t.Helper()
	out, err := kube.RoundTrip(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
