package policyjudge_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/policyjudge"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

const normalizedSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      backend:
        type: object
        x-kubernetes-unions:
        - discriminator: type
          fields-to-discriminateBy: {service: Service, bucket: Bucket, url: URL}
        properties:
          type: {type: string}
          service: {type: string}
          bucket: {type: object, properties: {name: {type: string}}}
          url: {type: string}
`

// TestVerifyNormalization runs what verify --normalize runs: the policy
// mut2cel writes, through the apiserver's mutating-policy code, against
// the reference normalizer; and the same with the policy broken, which
// must disagree.
func TestVerifyNormalization(t *testing.T) {
	doc := testcrd.WithSchema(t, normalizedSchema)
	p, err := translate.Compile(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := policy.Normalizing(p, policy.Options{})
	if err != nil || len(ns) != 1 {
		t.Fatalf("%d policies, %v", len(ns), err)
	}
	rep, err := verifyOne(doc, ns[0], 300)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Disagreements != 0 || rep.Requests != 600 || rep.Changed < 60 {
		t.Fatalf("%+v: want 600 requests, no disagreement, at least a tenth changed", rep)
	}
	t.Logf("%d requests, %d changed by the normalization", rep.Requests, rep.Changed)

	broken := ns[0].Policy.DeepCopy()
	m := &broken.Spec.Mutations[0]
	m.JSONPatch.Expression = strings.Replace(m.JSONPatch.Expression, "'Bucket'", "'Nothing'", 1)
	if m.JSONPatch.Expression == ns[0].Policy.Spec.Mutations[0].JSONPatch.Expression {
		t.Fatal("the policy has no 'Bucket' to break")
	}
	rep, err = verifyOne(doc, policy.Normalizer{Version: "v1", Policy: broken}, 300)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Disagreements == 0 || rep.First == nil {
		t.Errorf("a broken policy passed %d requests", rep.Requests)
	}
}

// verifyOne holds the normalizing policy n, in process, to the reference
// on pairs generated with seed 1, as verify --normalize does.
func verifyOne(doc map[string]interface{}, n policy.Normalizer, pairs int) (*verifyrun.NormalizationReport, error) {
	job := verifyrun.NormalizationJob{Job: verifyrun.Job{Declared: batch.InputCRD{Value: doc}}, Normalizers: []policy.Normalizer{n}}
	reps, err := job.Verify(policyjudge.InProcess{}, pairs, 1)
	if err != nil {
		return nil, err
	}
	return reps[0], nil
}
