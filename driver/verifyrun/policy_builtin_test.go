package verifyrun_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// declareAt sets the declaration ext: value on the node at path (property
// names) of the first version's schema of doc.
func declareAt(t *testing.T, doc map[string]interface{}, ext string, value interface{}, path ...string) {
	t.Helper()
	node := doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, p := range path {
		if p == "[*]" {
			node = node["items"].(map[string]interface{})
			continue
		}
		next, ok := node["properties"].(map[string]interface{})[p].(map[string]interface{})
		if !ok {
			t.Fatalf("no property %s in %v", p, path)
		}
		node = next
	}
	node[ext] = value
}

// TestPolicyDeployment declares on the built-in Deployment what a platform
// team asks for, writes the policy from client-go's schema of the type,
// and verifies it through the apiserver's admission-policy code.
func TestPolicyDeployment(t *testing.T) {
	r, err := builtin.ParseResource("apps/v1/Deployment")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := builtin.CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	declareAt(t, doc, "x-kubernetes-mutability", "Immutable", "spec", "template", "spec", "serviceAccountName")
	declareAt(t, doc, "x-kubernetes-key-mutability", "AddOnly", "spec", "template", "spec", "volumes")
	declareAt(t, doc, "x-kubernetes-update", []interface{}{"NoSet", "NoUnset"}, "spec", "replicas")
	declareAt(t, doc, "x-kubernetes-mutability", "Immutable", "spec", "template", "spec", "containers", "[*]", "image")
	checkPolicy(t, doc, translate.Options{}, 2000, 1)
	_ = verify.DefaultPairs
}

// TestPolicyCorpusCases writes the validating policies of the declared
// corpus cases (testdata/real/cases.yaml, CRDs from ../shared/corpus) and
// verifies each through the apiserver's admission-policy code. A case the
// compiler or the policy writer refuses is counted, not failed: the
// refusals are the CRD back end's, tested elsewhere, and the policy
// writer's, which name their reason. -short verifies a sample of them.
func TestPolicyCorpusCases(t *testing.T) {
	const pairs = 300
	verified, refused := 0, 0
	for _, c := range corpus.Sample(corpus.Cases(t), 5) {
		doc := c.Declared(t)
		kube := translate.DefaultKubeVersion
		if c.KubeVersion != "" {
			var err error
			if kube, err = translate.ParseKubeVersion(c.KubeVersion); err != nil {
				t.Fatal(err)
			}
		}
		opts := translate.Options{KubeVersion: kube, AllServedVersions: c.AllVersions}
		p, err := translate.CompileForPolicies(doc, opts)
		if err != nil {
			t.Logf("%s: refused by the compiler: %s", c.Name, refusalKind(err))
			refused++
			continue
		}
		model, err := crdmodel.Read(doc)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := policy.Validating(p, model, policy.ValidatingOptions{})
		if err != nil {
			t.Logf("%s: refused by the policy writer: %v", c.Name, err)
			refused++
			continue
		}
		declared, err := declread.CRD(doc, nil, c.AllVersions)
		if err != nil {
			t.Fatalf("%s: Declared: %v", c.Name, err)
		}
		rep, err := verify.Verify(declared, published(t, doc), verify.Options{Pairs: pairs, Seed: 1, Counterexamples: 1, NewJudge: verifyrun.PolicyJudge(ps)})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, v := range rep.Versions {
			for _, ce := range v.Counterexamples {
				t.Errorf("%s, version %s: disagreement:\n%s", c.Name, v.Version, ce.YAML())
			}
			if v.Disagreements > 0 {
				t.Errorf("%s, version %s: %d disagreements", c.Name, v.Version, v.Disagreements)
			}
		}
		verified++
	}
	t.Logf("%d corpus cases verified through their policies, %d refused", verified, refused)
	if verified == 0 {
		t.Error("no corpus case verified through its policy")
	}
}
