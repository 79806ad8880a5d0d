package apiserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
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

// TestJudgedCRDProtectedGroup checks that the judged CRD, and its copy
// without rules, are in a protected group exactly when the CRD under test
// is, keep its api-approved.kubernetes.io annotation and no other, and pass
// the apiserver's validation whenever the CRD under test does.
func TestJudgedCRDProtectedGroup(t *testing.T) {
	const approved = "https://github.com/kubernetes-sigs/gateway-api/pull/1"
	for _, c := range []struct {
		group, approval string
		valid           bool
	}{
		{group: "example.com", valid: true},
		{group: "example.com", approval: approved, valid: true},
		{group: "k8s.io.example.com", valid: true},
		{group: "k8s.io", approval: approved, valid: true},
		{group: "gateway.networking.k8s.io", approval: approved, valid: true},
		{group: "snapshot.storage.k8s.io", approval: "unapproved, experimental-only", valid: true},
		{group: "kubernetes.io", approval: approved, valid: true},
		{group: "x.kubernetes.io", approval: approved, valid: true},
		{group: "gateway.networking.k8s.io"},
		{group: "gateway.networking.k8s.io", approval: "approved"},
	} {
		doc := testcrd.WithSchema(t, `{type: object}`)
		meta := doc["metadata"].(map[string]interface{})
		meta["name"] = "widgets." + c.group
		annotations := map[string]interface{}{"mut2cel.io/declarations": "v1: {}\n"}
		if c.approval != "" {
			annotations[apiextensionsv1.KubeAPIApprovedAnnotation] = c.approval
		}
		meta["annotations"] = annotations
		doc["spec"].(map[string]interface{})["group"] = c.group
		what := fmt.Sprintf("group %s, approval %q", c.group, c.approval)
		if errs := validate(t, doc); (len(errs) == 0) != c.valid {
			t.Fatalf("%s: the test case is wrong: validation gives %v", what, errs)
		}
		crd, err := judgedCRD(doc, "v1", "j7")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string(nil)
		if c.approval != "" {
			want = map[string]string{apiextensionsv1.KubeAPIApprovedAnnotation: c.approval}
		}
		if !reflect.DeepEqual(crd.Annotations, want) {
			t.Errorf("%s: judged CRD annotations %v, want %v", what, crd.Annotations, want)
		}
		for _, judged := range []*apiextensionsv1.CustomResourceDefinition{crd, withoutRules(crd, "bare")} {
			if got, want := apihelpers.IsProtectedCommunityGroup(judged.Spec.Group), apihelpers.IsProtectedCommunityGroup(c.group); got != want {
				t.Errorf("%s: %s protected %v, want %v", what, judged.Spec.Group, got, want)
			}
			errs, err := kube.ValidateCRD(judged)
			if err != nil {
				t.Fatal(err)
			}
			if c.valid && len(errs) > 0 {
				t.Errorf("%s: the judged CRD %s fails validation: %v", what, judged.Name, errs)
			}
		}
	}
}

// validate runs the apiserver's CRD validation on a CRD document.
func validate(t *testing.T, doc map[string]interface{}) field.ErrorList {
	t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal([]byte(js(t, doc)), crd); err != nil {
		t.Fatal(err)
	}
	errs, err := kube.ValidateCRD(crd)
	if err != nil {
		t.Fatal(err)
	}
	return errs
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
