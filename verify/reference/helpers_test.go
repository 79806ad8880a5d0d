package reference

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

func mustChecker(t testing.TB, schema string) *Checker {
	t.Helper()
	c, err := NewChecker(testcrd.Decode(t, schema))
	if err != nil {
		t.Fatalf("NewChecker(%s) = %v, want no error", schema, err)
	}
	return c
}

// check runs one update written as YAML objects.
func check(t *testing.T, c *Checker, old, new string) []Violation {
	t.Helper()
	return c.Check(testcrd.Decode(t, old), testcrd.Decode(t, new))
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
