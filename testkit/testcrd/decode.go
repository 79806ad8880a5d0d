package testcrd

import (
	"fmt"
	"os"
	"testing"

	"sigs.k8s.io/yaml"
)

// Decode reads a schema, an object or a CRD document written as YAML in a
// test; text that decodes to nothing is an empty map. A key YAML 1.1
// reads as a boolean (y, n, yes, no, on, off unquoted) fails the test:
// the test meant the key.
func Decode(tb testing.TB, text string) map[string]interface{} {
	tb.Helper()
	return decode(tb, fmt.Sprintf("%q", text), []byte(text))
}

// ReadFile reads a one-document YAML file (an example, a fixture, a
// corpus CRD) as Decode reads text; an error fails the test, naming the
// file.
func ReadFile(tb testing.TB, path string) map[string]interface{} {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return decode(tb, path, data)
}

// YAML writes a decoded document as YAML, for a test's messages; a
// document YAML cannot write gives the error's text.
func YAML(doc map[string]interface{}) string {
	data, err := yaml.Marshal(doc)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

func decode(tb testing.TB, name string, data []byte) map[string]interface{} {
	tb.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		tb.Fatalf("decoding %s: %v", name, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	if k := boolKey(m); k != "" {
		tb.Fatalf("decoding %s: key %s was read as a boolean; quote it", name, k)
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
