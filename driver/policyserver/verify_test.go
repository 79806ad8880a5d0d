package policyserver

import (
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/verify"
)

// policyPairs is how many updates per version TestPolicyVerify judges
// through the server: each costs a create, an update and a delete, and a
// refused one as many again on the CRD without rules.
const policyPairs, policySeed = 300, 1

// TestPolicyVerify runs the verifier over examples whose declarations are
// enforced by the policies written for them, with the server, running the
// ValidatingAdmissionPolicy plugin, as its judge: the server must refuse
// exactly the updates the reference checker refuses. ports.yaml holds an
// immutable field of list-map items, unions.yaml unions with and without
// a discriminator on the items of lists. The same run with the policies'
// validations removed must find disagreements: the run can fail.
func TestPolicyVerify(t *testing.T) {
	t.Parallel()
	cases := policyCases(t)
	t.Logf("seed %d, %d pairs per version", policySeed, policyPairs)
	for _, name := range []string{"ports.yaml", "unions.yaml"} {
		t.Run(name, func(t *testing.T) {
			// The server waits on etcd more than it computes: runs at
			// once take little longer than one.
			t.Parallel()
			rep := verifyByPolicies(t, name, cases[name], policyPairs, 0)
			for _, v := range rep.Versions {
				if v.Pairs != policyPairs {
					t.Errorf("version %s: %d pairs checked, want %d", v.Version, v.Pairs, policyPairs)
				}
				for _, ce := range v.Counterexamples {
					t.Errorf("version %s: disagreement:\n%s", v.Version, ce.YAML())
				}
				if v.Failed() {
					t.Errorf("version %s fails: %d disagreements, unexercised %v, untested %v, %d set aside", v.Version, v.Disagreements, v.Unexercised(), v.Untested(), v.Invalid)
				}
			}
		})
	}
	t.Run("teeth", func(t *testing.T) {
		t.Parallel()
		const pairs = policyPairs / 3
		rep := verifyByPolicies(t, "unions.yaml without validations", cases["unions.yaml, none"], pairs, -1)
		disagreements := 0
		for _, v := range rep.Versions {
			disagreements += v.Disagreements
		}
		if disagreements == 0 {
			t.Errorf("policies without validations passed %d pairs", pairs)
		}
	})
}

// verifyByPolicies verifies the case's declarations with its judge, and
// shows as many counterexamples as Options.Counterexamples says.
func verifyByPolicies(t *testing.T, name string, pc *policyCase, pairs, counterexamples int) *verify.Report {
	t.Helper()
	start := time.Now()
	opts := verify.Options{Pairs: pairs, Seed: policySeed, Counterexamples: counterexamples,
		NewJudge: func(verify.Target) (verify.Judge, error) { return pc.judge, nil }}
	rep, err := verify.Verify(pc.declared, pc.published, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d pairs judged by the server in %s", name, pairs, time.Since(start).Round(time.Millisecond))
	return rep
}
