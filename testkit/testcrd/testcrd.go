// Package testcrd holds what the tests of several packages share: the
// minimal CRD documents tests wrap their schemas in, and the verdict table
// of the KEP examples (testdata/kep/examples.yaml) that translate's and
// e2e's tests both check.
package testcrd

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// WithSchema wraps a version schema, given as YAML, in a minimal
// apiextensions.k8s.io/v1 CRD document with one served, stored version v1.
func WithSchema(tb testing.TB, schemaYAML string) map[string]interface{} {
	tb.Helper()
	var s map[string]interface{}
	if err := yaml.Unmarshal([]byte(schemaYAML), &s); err != nil {
		tb.Fatalf("bad test schema: %v", err)
	}
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": "widgets.example.com"},
		"spec": map[string]interface{}{
			"group": "example.com",
			"names": map[string]interface{}{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"scope": "Namespaced",
			"versions": []interface{}{map[string]interface{}{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": s},
			}},
		},
	}
}
