package inferrun_test

import (
	"path/filepath"
	"testing"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/frontend/infer"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// roundTripPairs are the updates per version of the round trip: it checks
// mut2cel's own rules, which the verifier's other tests check at length,
// against what infer proposed of each CRD.
const roundTripPairs = 100

// TestCorpusRoundTrip takes every CRD of the corpus through what a user
// does with infer's output: infer, translate with the sure proposals
// (translate -w --declarations), then verify the translation against the
// same proposals (verify --declarations): no update may disagree, in any
// served version. With -short, a CRD of each kind of proposal only.
func TestCorpusRoundTrip(t *testing.T) {
	dir := corpus.Dir(t)
	paths := []string{dir}
	if testing.Short() {
		paths = []string{filepath.Join(dir, "kueue", "kueue.x-k8s.io_localqueues.yaml"), filepath.Join(dir, "karpenter", "karpenter.sh_nodeoverlays.yaml"),
			filepath.Join(dir, "external-snapshotter", "groupsnapshot.storage.k8s.io_volumegroupsnapshotclasses.yaml")}
	}
	crds, problems := inferrun.Read(t.Context(), inferrun.Source{Paths: paths}, batch.Silent{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	checked, pairs := 0, 0
	for _, c := range crds {
		p, diags := inferrun.Propose(c, translate.Options{}, nil)
		if len(diags) > 0 || len(p.Unplaced) > 0 {
			t.Errorf("%s: %v %v", c.At.File, diags, p.Unplaced)
			continue
		}
		if p.Translation == nil {
			continue
		}
		sets := infer.Sets("proposals.yaml", []*infer.Result{p.Result})
		declared, err := declread.CRD(p.Translation.Translated, sets, false)
		if err != nil {
			t.Errorf("%s: %s: reading the declarations back: %v", c.At.File, p.Result.CRD, err)
			continue
		}
		rep, err := verify.Verify(declared, p.Translation.Translated, verify.Options{Pairs: roundTripPairs, Seed: 1, Workers: 2, Counterexamples: 1})
		if err != nil {
			t.Errorf("%s: %s: verify: %v", c.At.File, p.Result.CRD, err)
			continue
		}
		checked++
		for _, v := range rep.Versions {
			pairs += v.Pairs
			if v.Disagreements == 0 {
				continue
			}
			first := []byte("(not shrunk)")
			if len(v.Counterexamples) > 0 {
				first = v.Counterexamples[0].YAML()
			}
			t.Errorf("%s: %s %s: %d updates on which the translation of the proposals and the proposals disagree; the first, shrunk:\n%s",
				c.At.File, p.Result.CRD, v.Version, v.Disagreements, first)
		}
	}
	t.Logf("%d CRDs translated with their proposals and verified on %d updates", checked, pairs)
	if checked == 0 {
		t.Error("no CRD had a sure proposal")
	}
}
