package testcrd

import (
	"testing"

	"sigs.k8s.io/yaml"
)

// Decode reads a schema, an object or a CRD document written as YAML in a
// test; text that decodes to nothing is an empty map. A key YAML 1.1
// reads as a boolean (y, n, yes, no, on, off unquoted) fails the test:
// the test meant the key.
func Decode(tb testing.TB, text string) map[string]interface{} {
	tb.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		tb.Fatalf("decoding %q: %v", text, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	if k := boolKey(m); k != "" {
		tb.Fatalf("decoding %q: key %s was read as a boolean; quote it", text, k)
	}
	return m
}

// boolKey finds a map key that YAML 1.1 turned into "true" or "false".
func boolKey(v interface{}) string {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			if k == "true" || k == "false" {
				return k
			}
			if found := boolKey(e); found != "" {
				return found
			}
		}
	case []interface{}:
		for _, e := range x {
			if found := boolKey(e); found != "" {
				return found
			}
		}
	}
	return ""
}
