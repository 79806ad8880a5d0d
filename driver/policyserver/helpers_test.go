package policyserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// published returns doc as its publisher wrote it (crd.Published).
func published(t *testing.T, doc map[string]interface{}) map[string]interface{} {
	t.Helper()
	out, err := crdmodel.Published(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// policiesOf compiles doc and writes its validating policies with opts.
func policiesOf(t *testing.T, doc map[string]interface{}, opts policy.ValidatingOptions) []policy.ValidatingPolicy {
	t.Helper()
	p, err := translate.CompileForPolicies(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := crdmodel.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := policy.Validating(p, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// stored decodes an object written as YAML as storage returns it.
func stored(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	out, err := kube.RoundTrip(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func structural(t *testing.T, raw map[string]interface{}) *schema.Structural {
	t.Helper()
	data, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := json.Unmarshal(data, props); err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(props)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// onlySchema is the raw schema of the first version of doc.
func onlySchema(doc map[string]interface{}) map[string]interface{} {
	v := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})
	return v["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
}

func readExample(t *testing.T, name string) map[string]interface{} {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}
