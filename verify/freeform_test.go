package verify_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify"
)

// TestFreeFormObjects is class 4 of issue 27: on a free-form object
// (additionalProperties: true) the apiserver's == does not see keys that
// only one side has, so self == oldSelf lets keys be added and renamed.
// The generator must give such objects keys, or verify could not tell.
func TestFreeFormObjects(t *testing.T) {
	const schema = `
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: has(self.free) == has(oldSelf.free)
    properties:
      free:
        type: object
        additionalProperties: true
        x-kubernetes-mutability: Immutable
        x-kubernetes-validations:
        - rule: self == oldSelf
`
	declared := testcrd.WithSchema(t, strings.NewReplacer("    x-kubernetes-validations:\n    - rule: has(self.free) == has(oldSelf.free)\n", "",
		"        x-kubernetes-validations:\n        - rule: self == oldSelf\n", "").Replace(schema))
	tested := testcrd.WithSchema(t, strings.Replace(schema, "        x-kubernetes-mutability: Immutable\n", "", 1))
	rep, err := verify.Verify(declared, tested, verify.Options{Pairs: 2000, Seed: 1, Counterexamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	missed := false
	for _, g := range v.Groups {
		missed = missed || g.Constraint != nil && g.Constraint.Name == "NoModify"
	}
	if !missed {
		t.Errorf("verify passes self == oldSelf on a free-form object: %d disagreements, untested %v", v.Disagreements, v.Untested())
	}
}
