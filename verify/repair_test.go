package verify_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// oneOfCRD declares two fields of an object whose rule on create wants
// exactly one of them, and a third that a rule on create forbids: the
// generator's objects fail the first half the time, the second always.
const oneOfSchema = `
type: object
required: [metadata]
properties:
  metadata: {type: object}
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "has(self.source) ? (has(self.source.a) ? 1 : 0) + (has(self.source.b) ? 1 : 0) == 1 : true"
      message: exactly one of a and b
    - rule: "!has(self.legacy)"
      message: legacy is not supported
    properties:
      source:
        type: object
        properties:
          a: {type: string, x-kubernetes-mutability: Immutable}
          b: {type: string, x-kubernetes-mutability: Immutable}
      legacy: {type: string, x-kubernetes-mutability: Immutable}
      size: {type: integer, x-kubernetes-mutability: Immutable}
`

// TestMendedPairs checks that the pairs the CRD's rules on create refuse
// are mended rather than set aside, that a declaration no valid update
// reaches is out of reach rather than untested, that the run passes with
// the translation and fails without its rules, and that the report does
// not depend on the number of workers.
func TestMendedPairs(t *testing.T) {
	doc := testcrd.WithSchema(t, oneOfSchema)
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(tested map[string]interface{}, workers int) *verify.VersionReport {
		rep, err := verify.Verify(doc, tested, verify.Options{Pairs: 1000, Seed: 1, Workers: workers, Counterexamples: -1})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Versions[0]
	}
	v := run(res.Translated, 1)
	if v.Failed() || v.Invalid > 10 {
		t.Errorf("translation: %d disagreements, %d set aside %v, untested %v, unexercised %v; want a pass with few set aside",
			v.Disagreements, v.Invalid, v.SetAside, v.Untested(), v.Unexercised())
	}
	reach := map[string]bool{}
	for _, c := range v.Unreachable() {
		reach[c.Path] = true
	}
	if !reach[".spec.legacy"] || reach[".spec.size"] {
		t.Errorf("out of reach: %v; want .spec.legacy, which a rule on create forbids, and not .spec.size", v.Unreachable())
	}
	if again := run(res.Translated, 2); !reflect.DeepEqual(again, v) {
		t.Errorf("the report with two workers differs from the one with one")
	}
	if bare := run(withoutRules(res.Translated), 2); bare.Disagreements == 0 {
		t.Errorf("verify passes the translation with no rules")
	}
}

// TestRequiredMetadata is the case of Argo CD's Application: the root
// requires metadata, and the CRD under test has no rule. Every pair that
// breaks the declaration must be judged, and the run must fail.
func TestRequiredMetadata(t *testing.T) {
	const schema = `
type: object
required: [metadata, spec]
properties:
  metadata:
    type: object
    properties:
      name: {type: string, maxLength: 8, pattern: '^[a-z]+$'}
  spec:
    type: object
    required: [project]
    properties:
      project: {type: string, x-kubernetes-mutability: Immutable}
`
	declared := testcrd.WithSchema(t, schema)
	tested := testcrd.WithSchema(t, strings.Replace(schema, ", x-kubernetes-mutability: Immutable", "", 1))
	rep, err := verify.Verify(declared, tested, verify.Options{Pairs: 500, Seed: 1, Counterexamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Versions[0]
	if v.Invalid != 0 || v.Disagreements == 0 || !rep.Failed() {
		t.Errorf("%d pairs set aside %v, %d disagreements, failed %v; want none set aside and the run failed on disagreements",
			v.Invalid, v.SetAside, v.Disagreements, rep.Failed())
	}
}

// TestReadAsDuration checks that a string a rule on create reads as a
// duration is drawn from durations once the apiserver says so: few pairs
// are set aside, and the declaration on it is tested.
func TestReadAsDuration(t *testing.T) {
	doc := testcrd.WithSchema(t, `
type: object
properties:
  spec:
    type: object
    required: [timeout]
    properties:
      timeout:
        type: string
        maxLength: 16
        x-kubernetes-mutability: Immutable
        x-kubernetes-validations:
        - rule: duration(self) >= duration('1s')
`)
	res, err := translate.Translate(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Verify(doc, res.Translated, verify.Options{Pairs: 1000, Seed: 1, Counterexamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Versions[0]; v.Invalid > 10 || rep.Failed() {
		t.Errorf("%d pairs set aside %v, untested %v; want few, and a pass", v.Invalid, v.SetAside, v.Untested())
	}
}
