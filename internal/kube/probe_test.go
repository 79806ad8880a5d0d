package kube

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

func schemaOf(t *testing.T, y string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	p := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.Unmarshal([]byte(y), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func objOf(t *testing.T, y string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestProbe(t *testing.T) {
	sch := `
type: object
properties:
  s:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
    x-kubernetes-validations:
    - rule: "self.map(x, x) == oldSelf.map(x, x)"
      message: setorder
  o:
    type: object
    properties:
      a: {type: string, nullable: true}
      b: {type: string}
      c: {type: string, nullable: true}
    x-kubernetes-validations:
    - rule: "self == oldSelf"
      message: objeq
  m:
    type: object
    additionalProperties: {type: string}
x-kubernetes-validations:
- rule: "oldSelf.?m.orValue({}).all(k, k in self.?m.orValue({}))"
  message: mapkeys
- rule: "[0,1,2].all(i, i >= size(self.?s.orValue([])) || true)"
  message: lit
`
	s, err := Structural(schemaOf(t, sch))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ old, new string }{
		{`{s: [a, b]}`, `{s: [b, a]}`},
		{`{s: [a, b]}`, `{s: [a, b]}`},
		{`{o: {a: null, b: x}}`, `{o: {b: x, c: null}}`},
		{`{o: {a: null, b: x}}`, `{o: {b: x}}`},
		{`{o: {b: x}}`, `{o: {b: x, c: null}}`},
		{`{m: {a: x}}`, `{}`},
		{`{m: {a: x}}`, `{m: {b: x}}`},
		{`{}`, `{m: {b: x}}`},
	}
	for _, c := range cases {
		o, n := objOf(t, c.old), objOf(t, c.new)
		errs := ValidateUpdate(s, n, o)
		t.Logf("%s -> %s: %v", c.old, c.new, errs)
	}
}
