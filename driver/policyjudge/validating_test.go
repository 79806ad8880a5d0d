package policyjudge_test

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/policyjudge"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/testkit/randomcrd"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/pairgen"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// refusalKind names the reasons of a refusal the semantics allows,
// sorted and joined by "+", or returns "" if any problem has none.
func refusalKind(err error) string {
	var terr *translate.Error
	if !errors.As(err, &terr) || len(terr.Problems) == 0 {
		return ""
	}
	reasons := map[string]bool{}
	for _, p := range terr.Problems {
		if p.Reason == "" {
			return ""
		}
		reasons[p.Reason] = true
	}
	kinds := make([]string, 0, len(reasons))
	for r := range reasons {
		kinds = append(kinds, r)
	}
	sort.Strings(kinds)
	return strings.Join(kinds, "+")
}

// published returns doc as its publisher wrote it (crd.Published).
func published(t testing.TB, doc map[string]interface{}) map[string]interface{} {
	t.Helper()
	out, err := crdmodel.Published(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// policiesFor compiles doc and writes its validating policies.
func policiesFor(t testing.TB, doc map[string]interface{}, opts translate.Options) []policy.ValidatingPolicy {
	t.Helper()
	p, err := translate.CompileForPolicies(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := crdmodel.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := policy.Validating(p, c, policy.ValidatingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// checkPolicy verifies the policies of declared against the reference
// checker, through the apiserver's admission-policy code.
func checkPolicy(t *testing.T, declared map[string]interface{}, opts translate.Options, pairs int, seed int64) {
	t.Helper()
	ps := policiesFor(t, declared, opts)
	if len(ps) == 0 {
		t.Fatal("no policy written")
	}
	rep, err := verify.Verify(declared, published(t, declared), verify.Options{Pairs: pairs, Seed: seed, NewJudge: policyjudge.PolicyJudge(ps)})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Versions {
		if v.Pairs != pairs {
			t.Errorf("version %s: %d pairs checked, want %d", v.Version, v.Pairs, pairs)
		}
		for _, ce := range v.Counterexamples {
			t.Errorf("version %s: disagreement (seed %d):\n%s", v.Version, seed, ce.YAML())
		}
		if v.Failed() {
			t.Errorf("version %s fails: %d disagreements, unexercised %v, untested %v, %d set aside", v.Version, v.Disagreements, v.Unexercised(), v.Untested(), v.Invalid)
		}
	}
}

// TestPolicyTeeth checks that the policy path can fail: with any one of
// its validations removed, every example's policy fails verify in that
// validation's version (a disagreement, or a declaration or constraint
// left untested), as TestTeethExamples requires of CRD rules. -short
// removes those of a sample of the examples.
func TestPolicyTeeth(t *testing.T) {
	const seed, pairs = 1, 2000
	examples, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	cut := 0
	for _, file := range corpus.Sample(examples, 2) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			declared := testcrd.ReadFile(t, file)
			for i, p := range policiesFor(t, declared, translate.Options{}) {
				for j, val := range p.Policy.Spec.Validations {
					ps := policiesFor(t, declared, translate.Options{})
					validations := ps[i].Policy.Spec.Validations
					ps[i].Policy.Spec.Validations = append(validations[:j:j], validations[j+1:]...)
					// The validation's version alone, up to the batch with
					// its first disagreement: a run without one goes on to
					// find what it left untested.
					rep, err := verify.Verify(declared, published(t, declared), verify.Options{Pairs: pairs, Seed: seed, Counterexamples: -1, NewJudge: policyjudge.PolicyJudge(ps),
						Versions: []string{p.Version}, StopAtDisagreement: true})
					if err != nil {
						t.Fatal(err)
					}
					caught := false
					for _, v := range rep.Versions {
						caught = caught || v.Version == p.Version && v.Failed()
					}
					if !caught {
						t.Errorf("version %s: verify passes the policy without its validation %q (%s)", p.Version, val.Message, val.Expression)
					}
					cut++
				}
			}
		})
	}
	t.Logf("%d validations removed one at a time", cut)
}

// TestPolicyNoDisagreement checks the validating policies of every
// example: evaluated by the apiserver's admission-policy code, they deny
// exactly what the reference checker denies.
func TestPolicyNoDisagreement(t *testing.T) {
	const seed, pairs = 1, 1000
	examples, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range examples {
		t.Run(filepath.Base(file), func(t *testing.T) {
			checkPolicy(t, testcrd.ReadFile(t, file), translate.Options{}, pairs, seed)
		})
	}
}

// TestPolicyRandomSchemas verifies the validating policies of random
// schemas, as TestRandomSchemas verifies their CRD rules: a refusal of the
// compiler is counted, a disagreement is a bug.
func TestPolicyRandomSchemas(t *testing.T) {
	pairs := 24
	if s := os.Getenv("MUT2CEL_PAIRS"); s != "" {
		pairs, _ = strconv.Atoi(s)
	}
	n := policySchemaCount(t)
	first := int64(1)
	if s := os.Getenv("MUT2CEL_FIRST_SEED"); s != "" {
		first, _ = strconv.ParseInt(s, 10, 64)
	}
	outcomes := map[string]int{}
	judged := 0
	for seed := first; seed < first+int64(n); seed++ {
		doc := randomcrd.New(seed, randomcrd.OptionsFromEnv())
		versions := translate.AllKubeVersions()
		kube := versions[uint64(seed)%uint64(len(versions))]
		p, err := translate.CompileForPolicies(doc, translate.Options{KubeVersion: kube})
		if err != nil && strings.Contains(err.Error(), "the CRD fails the apiserver's validation") {
			// The generator's schemas are not all valid CRDs; the CRD
			// path refuses these for other reasons first.
			outcomes["invalid schema"]++
			continue
		}
		if err != nil {
			kind := refusalKind(err)
			if kind == "" {
				t.Fatalf("schema seed %d: unexpected refusal: %v", seed, err)
			}
			outcomes["refused: "+kind]++
			continue
		}
		c, err := crdmodel.Read(doc)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := policy.Validating(p, c, policy.ValidatingOptions{})
		var inexpressible *policy.Error
		if errors.As(err, &inexpressible) {
			outcomes["refused by the policy writer"]++
			t.Logf("schema seed %d: policy writer refused: %v", seed, err)
			continue
		}
		if err != nil {
			t.Fatalf("schema seed %d: no policy: %v\n%s", seed, err, testcrd.YAML(doc))
		}
		rep, err := verify.Verify(doc, published(t, doc), verify.Options{Pairs: pairs, Seed: seed, Counterexamples: 1, NewJudge: policyjudge.PolicyJudge(ps)})
		if err != nil {
			t.Fatalf("schema seed %d: %v\n%s", seed, err, testcrd.YAML(doc))
		}
		for _, v := range rep.Versions {
			judged += v.Pairs
			for _, ce := range v.Counterexamples {
				var exprs []string
				for _, p := range ps {
					for _, val := range p.Policy.Spec.Validations {
						exprs = append(exprs, val.Expression)
					}
				}
				t.Fatalf("schema seed %d: disagreement:\n%s\nschema:\n%s\npolicy:\n%s", seed, ce.YAML(), testcrd.YAML(doc), strings.Join(exprs, "\n"))
			}
		}
		outcomes["verified"]++
	}
	t.Logf("%d schemas (seeds %d..%d), %d pairs judged: %v", n, first, first+int64(n)-1, judged, outcomes)
	if n >= randomcrd.MinStatsSchemas && outcomes["verified"]*100 < randomcrd.VerifiedFloor*n {
		t.Errorf("%d of %d schemas verified, want at least %d%%", outcomes["verified"], n, randomcrd.VerifiedFloor)
	}
}

// TestPolicyCreates checks the creates of random schemas with unions: the
// policy, evaluated by the apiserver's admission-policy code, denies a
// created object exactly when the reference checker finds a union broken
// in it (semantics.md 11.4). Verify judges updates only, so creates are
// judged here.
func TestPolicyCreates(t *testing.T) {
	const perSchema = 40
	n := policySchemaCount(t) / 2
	checked, denied := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		doc := randomcrd.New(seed, randomcrd.OptionsFromEnv())
		p, err := translate.CompileForPolicies(doc, translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 33}})
		if err != nil {
			continue
		}
		c, err := crdmodel.Read(doc)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := policy.Validating(p, c, policy.ValidatingOptions{})
		if err != nil {
			continue
		}
		for _, vp := range ps {
			cv, _ := c.Version(vp.Version)
			s, err := cv.Structural()
			if err != nil {
				t.Fatal(err)
			}
			checker, err := reference.NewChecker(cv.Raw)
			if err != nil {
				t.Fatal(err)
			}
			eval, err := admit.NewValidating(vp.Policy)
			if err != nil {
				t.Fatalf("schema seed %d: %v", seed, err)
			}
			gen := pairgen.NewFor(s, seed, checker)
			for i := 0; i < perSchema; i++ {
				_, obj := gen.Next()
				obj = kube.Store(s, obj)
				want := len(checker.CheckCreate(obj)) > 0
				d, err := eval.Validate(admit.Request{Operation: admission.Create, Resource: schema.GroupVersionResource{Group: c.Group, Version: vp.Version, Resource: c.Plural}, Object: obj})
				if err != nil {
					t.Fatal(err)
				}
				if len(d.Errors) > 0 {
					t.Fatalf("schema seed %d, object %d: the policy failed: %v", seed, i, d.Errors)
				}
				if got := len(d.Denied) > 0; got != want {
					t.Fatalf("schema seed %d, object %d: policy denies: %v, reference denies: %v\n%v\npolicy denials: %v\nreference: %v", seed, i, got, want, obj, d.Denied, checker.CheckCreate(obj))
				}
				checked++
				if want {
					denied++
				}
			}
		}
	}
	t.Logf("%d creates judged alike, %d of them denied", checked, denied)
	if checked == 0 || denied == 0 || denied == checked {
		t.Errorf("%d creates, %d denied: the test saw no verdict of one kind", checked, denied)
	}
}

// policySchemaCount is the number of random schemas the policy path
// checks: a quarter of TestRandomSchemas' (its walks make each judgement
// slower), or MUT2CEL_SCHEMAS.
func policySchemaCount(t *testing.T) int {
	if os.Getenv("MUT2CEL_SCHEMAS") != "" {
		return randomcrd.Count(t)
	}
	return randomcrd.Count(t) / 4
}
