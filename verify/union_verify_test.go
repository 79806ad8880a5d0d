package verify_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// filterDeclared is a filter of Gateway API's HTTPRoute, cut down: a
// union of two members selected by type, at most one, in the items of a
// list, declared.
const filterDeclared = `
type: object
properties:
  spec:
    type: object
    properties:
      filters:
        type: array
        maxItems: 4
        items:
          type: object
          required: [type]
          x-kubernetes-unions:
          - discriminator: type
            fields-to-discriminateBy: {requestHeaderModifier: RequestHeaderModifier, requestRedirect: RequestRedirect}
          properties:
            type: {type: string, enum: [RequestHeaderModifier, RequestRedirect, URLRewrite]}
            requestHeaderModifier: {type: object, properties: {add: {type: string, maxLength: 8}}}
            requestRedirect: {type: object, properties: {hostname: {type: string, maxLength: 8}}}`

// filterHandWritten is the same schema with Gateway API's own two rules
// per variant; $CONVERSE is the rule that ties requestRedirect to its
// type.
const filterHandWritten = `
type: object
properties:
  spec:
    type: object
    properties:
      filters:
        type: array
        maxItems: 4
        items:
          type: object
          required: [type]
          x-kubernetes-validations:
          - rule: "!(has(self.requestHeaderModifier) && self.type != 'RequestHeaderModifier')"
          - rule: "!(!has(self.requestHeaderModifier) && self.type == 'RequestHeaderModifier')"
          - rule: "!(has(self.requestRedirect) && self.type != 'RequestRedirect')"
          $CONVERSE
          properties:
            type: {type: string, enum: [RequestHeaderModifier, RequestRedirect, URLRewrite]}
            requestHeaderModifier: {type: object, properties: {add: {type: string, maxLength: 8}}}
            requestRedirect: {type: object, properties: {hostname: {type: string, maxLength: 8}}}`

// Gateway API's two rules per variant say what the union with exactlyOne
// says: a member may be set only when type selects it, and the selected
// one must be set; URLRewrite selects nothing. They agree with the
// checker on every judged pair, and pairs exercise the union.
func TestUnionVerifiesHandWrittenRules(t *testing.T) {
	declared := crd(strings.Replace(filterDeclared, "RequestRedirect}", "RequestRedirect}\n            exactlyOne: true", 1))
	tested := crd(strings.Replace(filterHandWritten, "$CONVERSE", `- rule: "!(!has(self.requestRedirect) && self.type == 'RequestRedirect')"`, 1))
	rep, err := verify.Verify(declared, tested, verify.Options{Pairs: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Disagreements != 0 {
		t.Errorf("%d disagreements, want 0; first cause %+v", v.Disagreements, v.Causes[0].Cause)
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

// Without the converse rule of requestRedirect, an item of type
// RequestRedirect without it passes; the verifier finds it and names the
// union and the kind of violation.
func TestUnionMissedRuleIsFound(t *testing.T) {
	declared := crd(strings.Replace(filterDeclared, "RequestRedirect}", "RequestRedirect}\n            exactlyOne: true", 1))
	tested := crd(strings.Replace(filterHandWritten, "$CONVERSE", "", 1))
	rep, err := verify.Verify(declared, tested, verify.Options{Pairs: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Disagreements == 0 {
		t.Fatal("no disagreement, want the missing converse rule found")
	}
	key := v.Causes[0].Cause.Key()
	t.Logf("cause: %s", key)
	for _, w := range []string{"x-kubernetes-unions", "ExactlyOne(requestHeaderModifier, requestRedirect; discriminator type)", "union: selected member unset"} {
		if !strings.Contains(key, w) {
			t.Errorf("cause %q does not name %q", key, w)
		}
	}
}
