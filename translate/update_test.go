package translate_test

import (
	"fmt"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// updateTable holds the verdicts of the update vocabulary (semantics.md 9).
const updateTable = "../testdata/update/constraints.yaml"

// TestUpdateConstraints translates every example of the update table with
// every combination of its constraints and checks every update through the
// apiserver's CEL validator and the reference checker, at the oldest
// supported Kubernetes version, the first with two-variable
// comprehensions, and the newest.
func TestUpdateConstraints(t *testing.T) {
	versions := []translate.KubeVersion{translate.MinKubeVersion, {Major: 1, Minor: 33}, translate.MaxKubeVersion}
	for _, ex := range testcrd.ReadUpdateTable(t, updateTable) {
		for _, c := range ex.Combinations() {
			schemaJSON := ex.Schema(c)
			checker := checkerFor(t, schemaJSON)
			for _, v := range versions {
				t.Run(fmt.Sprintf("%s/%s/%s", ex.Name, c, v), func(t *testing.T) {
					s := translated(t, schemaJSON, v)
					for _, tr := range ex.Transitions {
						checkVerdict(t, checker, s, tr.Old, tr.New, tr.Denies(c))
					}
				})
			}
		}
	}
}
