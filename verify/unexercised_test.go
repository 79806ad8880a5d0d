package verify_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// TestUnexercisedDeclarationFails declares a field in the items of a list
// bounded to no items: no valid object has one, so no pair can exercise
// the declaration, and the run fails naming it, though the rules and the
// declarations never disagree.
func TestUnexercisedDeclarationFails(t *testing.T) {
	declared := crd(`
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Immutable}
      none:
        type: array
        maxItems: 0
        items:
          type: object
          properties:
            name: {type: string, x-kubernetes-mutability: Immutable}`)
	res, err := translate.Translate(declared, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Verify(declared, res.Translated, verify.Options{Pairs: 500, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Disagreements != 0 {
		t.Errorf("%d disagreements, want 0", v.Disagreements)
	}
	want := ".spec.none[*].name"
	got := v.Unexercised()
	if len(got) != 1 || got[0].Path != want || got[0].Value != "Immutable" {
		t.Errorf("Unexercised() = %+v, want only the declaration at %s", got, want)
	}
	if !rep.Failed() {
		t.Error("Failed() = false, want true: a declaration was never exercised")
	}
}
