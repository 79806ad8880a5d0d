package kube

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

func TestValidateObject(t *testing.T) {
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.Unmarshal([]byte(`
type: object
properties:
  name: {type: string, pattern: '^[a-z]+/[a-z]+$'}
  port: {type: integer, minimum: 1}
  tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
`), props); err != nil {
		t.Fatal(err)
	}
	s, err := Structural(props)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		obj  map[string]interface{}
		want string
	}{
		{map[string]interface{}{"name": "a/b", "port": int64(1), "tags": []interface{}{"x", "y"}}, ""},
		{map[string]interface{}{"name": "ab"}, `name: Invalid value: "ab": name in body should match '^[a-z]+/[a-z]+$'`},
		{map[string]interface{}{"port": int64(0)}, "port: Invalid value: 0: port in body should be greater than or equal to 1"},
		{map[string]interface{}{"tags": []interface{}{"x", "x"}}, `tags[1]: Duplicate value: "x"`},
	} {
		errs, err := ValidateObject(props, s, tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != tc.want {
			t.Errorf("ValidateObject(%v) = %q, want %q", tc.obj, got, tc.want)
		}
	}
}
