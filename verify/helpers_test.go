package verify

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// The helpers of the checker's tests (verify/reference) that the tests of
// causes use too.

func mustChecker(t testing.TB, schema string) *reference.Checker {
	t.Helper()
	c, err := reference.NewChecker(testcrd.Decode(t, schema))
	if err != nil {
		t.Fatalf("NewChecker(%s) = %v, want no error", schema, err)
	}
	return c
}

// check runs one update written as YAML objects.
func check(t *testing.T, c *reference.Checker, old, new string) []reference.Violation {
	t.Helper()
	return c.Check(testcrd.Decode(t, old), testcrd.Decode(t, new))
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
