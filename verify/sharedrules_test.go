package verify

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// sharedCRD declares spec.name Immutable; countType and countRules are
// spec.count's type and rules, and extra is YAML added to the properties
// of spec.
func sharedCRD(t *testing.T, countType, countRules, extra string) map[string]interface{} {
	return CounterCRD(t, "x-kubernetes-mutability: Immutable", countEntries(countType, countRules), extra)
}

func countEntries(countType, countRules string) string {
	return "type: " + countType + ", x-kubernetes-validations: " + countRules
}

const (
	neverDecline = `[{rule: "self >= oldSelf"}]`
	// failsOnZero fails to evaluate when count drops by exactly one (a
	// division by zero) and is false when it drops by more: a user's rule
	// that errors as well as denies. It is a transition rule: a rule that
	// fails on create makes the apiserver refuse the object, and verify
	// sets such pairs aside before either side judges them.
	failsOnZero = `[{rule: "100 / (self - oldSelf + 1) >= 0", message: "no zero"}]`
)

// testedRun prepares the run of v1 of tested against the declarations
// of declared, as Verify does.
func testedRun(t *testing.T, declared, tested map[string]interface{}) *versionRun {
	t.Helper()
	r, err := newVersionRun(tested, crdVersions(declared)[0], crdVersions(tested)[0], Options{Seed: 1, NewJudge: newCELJudge})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOwnRules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declared map[string]interface{}
		tested   map[string]interface{} // nil: the translation of declared
		ok       bool
		own      int // rules left to evaluate alone; -1: those translate generated
	}{
		{name: "translation", declared: sharedCRD(t, "integer", neverDecline, ""), ok: true, own: -1},
		{name: "translation with a bound", declared: sharedCRD(t, "integer", neverDecline, "tags: {type: array, items: {type: string}}"), ok: true, own: -1},
		{name: "other type", declared: sharedCRD(t, "integer", neverDecline, ""), tested: sharedCRD(t, "number", neverDecline, ""), ok: false},
		{name: "companion missing", declared: sharedCRD(t, "integer", neverDecline, ""), tested: sharedCRD(t, "integer", "[]", ""), ok: false},
		{name: "other message", declared: sharedCRD(t, "integer", neverDecline, ""), tested: sharedCRD(t, "integer", `[{rule: "self >= oldSelf", message: "m"}]`, ""), ok: false},
		{name: "rule twice", declared: sharedCRD(t, "integer", neverDecline, ""),
			tested: sharedCRD(t, "integer", `[{rule: "self >= oldSelf"}, {rule: "self >= oldSelf"}]`, ""), ok: true, own: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tested := tc.tested
			if tested == nil {
				res, err := translate.Translate(tc.declared, translate.Options{})
				if err != nil {
					t.Fatal(err)
				}
				tested = res.Translated
			}
			declared, err := declread.CRD(tc.declared, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			ds, ts := versionStructural(t, declared), versionStructural(t, tested)
			own, ok := ownRules(ds, ts)
			if ok != tc.ok {
				t.Fatalf("ownRules ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			want := tc.own
			if want < 0 {
				want = ruleCount(ts) - ruleCount(ds)
			}
			if n := ruleCount(own); n != want || n == 0 {
				t.Errorf("%d rules left to evaluate alone, want %d", n, want)
			}
			if ruleCount(ds) != 1 {
				t.Fatalf("the declared schema has %d rules, want its own 1", ruleCount(ds))
			}
		})
	}
}

// TestSplitJudgesLikeWhole judges the same pairs with the shared rules
// set aside and judged whole: every outcome and reference verdict must
// be the same, on CRDs whose own rules deny and fail, under rules for
// name that let its removal through and fail to evaluate on a change to
// "a".
func TestSplitJudgesLikeWhole(t *testing.T) {
	const weakName = `x-kubernetes-validations: [{rule: "self == oldSelf || (self == 'a' ? 100 / (self.size() - 1) > 0 : false)"}]`
	for _, rules := range []string{neverDecline, failsOnZero} {
		t.Run(rules, func(t *testing.T) {
			declared := sharedCRD(t, "integer", rules, "")
			tested := CounterCRD(t, weakName, countEntries("integer", rules), "")
			split, whole := testedRun(t, declared, tested), testedRun(t, declared, tested)
			if split.own == nil {
				t.Fatal("the run does not set the shared rules aside")
			}
			whole.own = nil
			byCompanions, disagreements, failed := 0, 0, 0
			for i := 0; i < 3000; i++ {
				old, new := split.gen.Next()
				a, err := split.compare(old, new)
				if err != nil {
					t.Fatal(err)
				}
				b, err := whole.compare(old, new)
				if err != nil {
					t.Fatal(err)
				}
				if a.outcome != b.outcome || len(a.violations) != len(b.violations) || len(a.exercised) != len(b.exercised) {
					t.Fatalf("pair %d %v -> %v: split %v (%d violations), whole %v (%d violations)",
						i, old, new, a.outcome, len(a.violations), b.outcome, len(b.violations))
				}
				if len(b.companions) > 0 {
					byCompanions++
				}
				switch b.outcome {
				case disagreed:
					disagreements++
				case evalFailed:
					failed++
				}
			}
			if byCompanions == 0 || disagreements == 0 || failed == 0 {
				t.Errorf("%d pairs denied by the CRD's own rule, %d disagreements, %d evaluation failures: the test proves nothing",
					byCompanions, disagreements, failed)
			}
		})
	}
}

func ruleCount(s *schema.Structural) int {
	n := 0
	for _, path := range ruleHosts(s) {
		n += len(schemapath.At(s, path).XValidations)
	}
	return n
}

func versionStructural(t *testing.T, doc map[string]interface{}) *schema.Structural {
	t.Helper()
	crd, err := typedCRD(doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
