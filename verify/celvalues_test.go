package verify_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// celValuesDeclared declares values that the apiserver's CEL sees
// otherwise than they are stored (semantics.md 8): an object with
// properties named like CEL escapes, a list-map keyed by one, maps of
// date-times and bytes under key declarations, and a date.
const celValuesDeclared = `
type: object
properties:
  spec:
    type: object
    properties:
      names:
        type: object
        x-kubernetes-mutability: Immutable
        properties:
          __meta__: {type: string, maxLength: 8}
          x__dash__y: {type: string, maxLength: 8}
          x-y: {type: string, maxLength: 8}
      kinds:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [__kind__]
        items:
          type: object
          required: [__kind__]
          x-kubernetes-mutability: Immutable
          properties:
            __kind__: {type: string, maxLength: 8}
            __meta__: {type: string, maxLength: 8}
      data:
        type: object
        maxProperties: 4
        x-kubernetes-key-mutability: AddOnly
        additionalProperties: {type: string, format: byte, maxLength: 64}
      times:
        type: object
        maxProperties: 4
        x-kubernetes-key-mutability: RemoveOnly
        additionalProperties: {type: string, format: date-time}
      day: {type: string, format: date, x-kubernetes-mutability: Immutable}`

// TestCELValueModel verifies mut2cel's translation of celValuesDeclared,
// where the pair generator writes values equal in CEL but not as stored
// (60m for 1h, YR== for YQ==, another offset) and values CEL cannot read
// (+/8=, a lowercase t).
func TestCELValueModel(t *testing.T) {
	const seed = 1
	pairs := 3000
	if testing.Short() {
		pairs = 1000
	}
	declared := crd(celValuesDeclared)
	for _, v := range []translate.KubeVersion{translate.DefaultKubeVersion, {Major: 1, Minor: 33}} {
		res, err := translate.Translate(declared, translate.Options{KubeVersion: v})
		if err != nil {
			t.Fatalf("Translate at %s: %v", v, err)
		}
		checkClean(t, declared, res.Translated, pairs, seed)
	}
}

// TestCELValueModelNaiveRules checks that the verifier finds the rules
// that trust the apiserver's CEL values wrong: == on objects with
// escape-like property names and on formatted strings lets changes
// through ("allowed"), and reading a value CEL cannot convert fails
// ("error").
func TestCELValueModelNaiveRules(t *testing.T) {
	const seed, pairs = 1, 3000
	for _, c := range []struct {
		name, declared, naive string
		want                  []string
	}{{
		name:     "object with __meta__",
		declared: `{type: object, properties: {o: {type: object, x-kubernetes-mutability: Immutable, properties: {__meta__: {type: string, maxLength: 8}}}}}`,
		naive:    `{type: object, x-kubernetes-validations: [{rule: "has(self.o) == has(oldSelf.o)"}], properties: {o: {type: object, x-kubernetes-validations: [{rule: "self == oldSelf"}], properties: {__meta__: {type: string, maxLength: 8}}}}}`,
		want:     []string{"allowed"},
	}, {
		name:     "date-time",
		declared: `{type: object, required: [t], properties: {t: {type: string, format: date-time, x-kubernetes-mutability: Immutable}}}`,
		naive:    `{type: object, required: [t], properties: {t: {type: string, format: date-time, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}}`,
		want:     []string{"allowed", "error"},
	}, {
		name:     "duration",
		declared: `{type: object, required: [d], properties: {d: {type: string, format: duration, x-kubernetes-mutability: Immutable}}}`,
		naive:    `{type: object, required: [d], properties: {d: {type: string, format: duration, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}}`,
		want:     []string{"allowed"},
	}, {
		name:     "byte",
		declared: `{type: object, required: [b], properties: {b: {type: string, format: byte, maxLength: 64, x-kubernetes-mutability: Immutable}}}`,
		naive:    `{type: object, required: [b], properties: {b: {type: string, format: byte, maxLength: 64, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}}`,
		want:     []string{"allowed", "error"},
	}, {
		name:     "keys of a map of bytes",
		declared: `{type: object, required: [m], properties: {m: {type: object, maxProperties: 4, x-kubernetes-key-mutability: AddOnly, additionalProperties: {type: string, format: byte, maxLength: 64}}}}`,
		naive:    `{type: object, required: [m], properties: {m: {type: object, maxProperties: 4, x-kubernetes-validations: [{rule: "oldSelf.all(k, k in self)"}], additionalProperties: {type: string, format: byte, maxLength: 64}}}}`,
		want:     []string{"error"},
	}} {
		t.Run(strings.ReplaceAll(c.name, " ", "-"), func(t *testing.T) {
			rep, err := verify.Verify(crd(c.declared), crd(c.naive), verify.Options{Pairs: pairs, Seed: seed, Counterexamples: 10})
			if err != nil {
				t.Fatal(err)
			}
			v := rep.Versions[0]
			found := map[string]*verify.Counterexample{}
			for _, ce := range v.Counterexamples {
				switch {
				case ce.EvaluationError:
					found["error"] = ce
				case !ce.Denied && len(ce.Reference) > 0:
					found["allowed"] = ce
				}
			}
			for _, kind := range c.want {
				ce := found[kind]
				if ce == nil {
					t.Errorf("no %s counterexample among the first %d of %d disagreements in %d pairs (seed %d)", kind, len(v.Counterexamples), v.Disagreements, v.Pairs, seed)
					continue
				}
				t.Logf("%s, pair %d:\n%s", kind, ce.Pair, ce.YAML())
			}
		})
	}
}
