package verify_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// updateDeclared holds the three intents of semantics.md 9 as
// x-kubernetes-update declarations.
const updateDeclared = `
type: object
properties:
  spec:
    type: object
    properties:
      clusterName: {type: string, maxLength: 4, x-kubernetes-update: [NoModify]}
      replicas: {type: integer, maximum: 9, x-kubernetes-update: [NoSet, NoUnset]}
      parameters:
        type: object
        maxProperties: 3
        x-kubernetes-update: [NoUnset, NoModify]
        additionalProperties: {type: string, maxLength: 4}`

// updateHandWritten is the same schema with rules written by hand from
// semantics.md 9.2; $NAME is the rule of clusterName. A property rule runs
// only where the property exists before and after, which is NoModify; the
// presence of replicas and parameters needs the root, where the optional
// spec is seen.
const updateHandWritten = `
type: object
x-kubernetes-validations:
- rule: "(has(self.spec) && has(self.spec.replicas)) == (has(oldSelf.spec) && has(oldSelf.spec.replicas))"
- rule: "!(has(oldSelf.spec) && has(oldSelf.spec.parameters)) || (has(self.spec) && has(self.spec.parameters))"
properties:
  spec:
    type: object
    properties:
      clusterName:
        type: string
        maxLength: 4
        $NAME
      replicas: {type: integer, maximum: 9}
      parameters:
        type: object
        maxProperties: 3
        x-kubernetes-validations: [{rule: self == oldSelf}]
        additionalProperties: {type: string, maxLength: 4}`

// The verifier reaches every update constraint, and rules that mean
// what the constraints say agree with the checker on every pair.
func TestUpdateVerifiesHandWrittenRules(t *testing.T) {
	tested := crd(strings.Replace(updateHandWritten, "$NAME", "x-kubernetes-validations: [{rule: self == oldSelf}]", 1))
	rep, err := verify.Verify(crd(updateDeclared), tested, verify.Options{Pairs: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Disagreements != 0 {
		t.Errorf("%d disagreements, want 0; first cause %+v", v.Disagreements, v.Causes[0].Cause)
	}
	if len(v.Declarations) != 5 {
		t.Errorf("%d declarations counted, want one per constraint, 5", len(v.Declarations))
	}
	for _, d := range v.Declarations {
		if d.Pairs == 0 {
			t.Errorf("%s %s at %s exercised by no pair", d.Extension, d.Value, d.Path)
		}
	}
	if rep.Failed() {
		t.Error("Failed() = true, want false")
	}
}

// Without the rule of clusterName the verifier finds the change the rules
// miss and blames the NoModify constraint.
func TestUpdateMissedRuleIsFound(t *testing.T) {
	tested := crd(strings.Replace(updateHandWritten, "$NAME", "", 1))
	rep, err := verify.Verify(crd(updateDeclared), tested, verify.Options{Pairs: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	want := "missed: value of x-kubernetes-update: NoModify at .spec.clusterName"
	if v.Disagreements == 0 || len(v.Causes) != 1 || v.Causes[0].Cause.Key() != want {
		var keys []string
		for _, c := range v.Causes {
			keys = append(keys, c.Cause.Key())
		}
		t.Errorf("%d disagreements of causes %q, want some, all of cause %q", v.Disagreements, keys, want)
	}
}
