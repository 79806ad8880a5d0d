package reference

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// decode reads a schema or object written as YAML. Quote y, n, yes, no, on
// and off: YAML 1.1 reads them as booleans.
func decode(t testing.TB, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("decoding %q: %v", text, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	if k := boolKey(m); k != "" {
		t.Fatalf("decoding %q: key %s was read as a boolean; quote it", text, k)
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

func mustChecker(t testing.TB, schema string) *Checker {
	t.Helper()
	c, err := NewChecker(decode(t, schema))
	if err != nil {
		t.Fatalf("NewChecker(%s) = %v, want no error", schema, err)
	}
	return c
}

// check runs one update written as YAML objects.
func check(t *testing.T, c *Checker, old, new string) []Violation {
	t.Helper()
	return c.Check(decode(t, old), decode(t, new))
}

// brief renders violations as "path kind declaration", the part tests pin.
func brief(vs []Violation) string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s %s %s", v.Path, v.Kind, v.Declaration))
	}
	return strings.Join(out, "\n")
}

// lines joins expected violations the way brief renders them.
func lines(want ...string) string {
	return strings.Join(want, "\n")
}

// docPath abbreviates the places in the schema document that errors
// name: docPath("spec", "foo") is
// openAPIV3Schema.properties[spec].properties[foo].
func docPath(props ...string) string {
	s := "openAPIV3Schema"
	for _, p := range props {
		switch p {
		case "items", "additionalProperties":
			s += "." + p
		default:
			s += ".properties[" + p + "]"
		}
	}
	return s
}

// nodePath abbreviates the schema paths of declared nodes in reports:
// nodePath("spec", "foo", "items") is .spec.foo[*].
func nodePath(props ...string) string {
	var steps schemapath.Path
	for _, p := range props {
		switch p {
		case "items":
			steps = append(steps, schemapath.Step{Kind: schemapath.Items})
		case "additionalProperties":
			steps = append(steps, schemapath.Step{Kind: schemapath.Values})
		default:
			steps = append(steps, schemapath.Prop(p))
		}
	}
	return steps.String()
}

func sprintf(format string, args ...interface{}) string {
	return fmt.Sprintf(format, args...)
}
