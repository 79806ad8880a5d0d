package apiserver

import (
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const twoVersions = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com, annotations: {a: b}}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Cluster
  conversion:
    strategy: Webhook
    webhook: {conversionReviewVersions: [v1], clientConfig: {url: "https://example.com/convert"}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties: {spec: {type: string}}
  - name: v2
    served: false
    storage: false
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations: [{rule: "true"}]
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: self == oldSelf}]
            properties:
              list:
                type: array
                items: {type: string, x-kubernetes-validations: [{rule: self != ''}]}
              map:
                type: object
                additionalProperties: {type: string, x-kubernetes-validations: [{rule: self != ''}]}
`

// TestJudgedCRD checks the CRD a judge installs for v2: that version alone,
// served and stored, without conversion and subresources, in a group of
// its own, and its copy without rules.
func TestJudgedCRD(t *testing.T) {
	var doc map[string]interface{}
	if err := yaml.Unmarshal([]byte(twoVersions), &doc); err != nil {
		t.Fatal(err)
	}
	crd, err := judgedCRD(doc, "v2", "j7")
	if err != nil {
		t.Fatal(err)
	}
	v := crd.Spec.Versions
	switch {
	case crd.Name != "widgets.j7.example.com" || crd.Spec.Group != "j7.example.com":
		t.Errorf("name %s, group %s; want widgets.j7.example.com, j7.example.com", crd.Name, crd.Spec.Group)
	case len(v) != 1 || v[0].Name != "v2" || !v[0].Served || !v[0].Storage || v[0].Subresources != nil:
		t.Errorf("versions %+v; want v2 alone, served, stored, without subresources", v)
	case crd.Spec.Conversion != nil || len(crd.Annotations) != 0:
		t.Errorf("conversion %+v, annotations %v; want none", crd.Spec.Conversion, crd.Annotations)
	case strings.Count(js(t, crd), "x-kubernetes-validations") != 4:
		t.Errorf("the judged CRD lost rules: %s", js(t, crd))
	}
	bare := withoutRules(crd, "bare")
	if bare.Name != "widgets.bare.j7.example.com" || strings.Contains(js(t, bare), "x-kubernetes-validations") {
		t.Errorf("without rules: %s", js(t, bare))
	}
	if strings.Count(js(t, crd), "x-kubernetes-validations") != 4 {
		t.Error("withoutRules changed the CRD it copies")
	}
	if _, err := judgedCRD(doc, "v3", "j8"); err == nil || err.Error() != `the CRD has no version "v3"` {
		t.Errorf("judgedCRD(v3) = %v, want no such version", err)
	}
}

func js(t *testing.T, v interface{}) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestKeepFloats checks that floats stay floats in JSON and nothing else
// changes.
func TestKeepFloats(t *testing.T) {
	in := map[string]interface{}{
		"int": int64(1), "one": float64(1), "half": 0.5, "big": 1e21, "small": 1e-7, "neg": float64(-3),
		"list": []interface{}{float64(2), int64(2), "2"},
	}
	got := js(t, keepFloats(in))
	want := `{"big":1e+21,"half":0.5,"int":1,"list":[2.0,2,"2"],"neg":-3.0,"one":1.0,"small":1e-07}`
	if got != want {
		t.Errorf("keepFloats = %s, want %s", got, want)
	}
}
