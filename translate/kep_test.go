package translate_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// verdictTable holds the examples of the KEP "Immutable Fields" and the
// patterns of the blog post on CEL immutability, with the verdicts of
// docs/semantics.md; e2e's tests drive the same table through a real
// apiserver.
const verdictTable = "../testdata/kep/examples.yaml"

func TestKEPExamples(t *testing.T) {
	runVerdicts(t, verdictCases(testcrd.ReadVerdicts(t, verdictTable).KEP), testcrd.KubeVersions(t))
}

func TestBlogPatterns(t *testing.T) {
	runVerdicts(t, verdictCases(testcrd.ReadVerdicts(t, verdictTable).Blog), testcrd.KubeVersions(t))
}

// verdictCases gives the examples of the table the form of this package's
// own verdict tables.
func verdictCases(examples []testcrd.Example) []verdictCase {
	var cases []verdictCase
	for _, ex := range examples {
		c := verdictCase{name: ex.Name, schema: ex.Schema("%s"), values: ex.Values}
		for _, tr := range ex.Transitions {
			c.transitions = append(c.transitions, transition{tr.Old, tr.New, tr.Allow})
		}
		cases = append(cases, c)
	}
	return cases
}
