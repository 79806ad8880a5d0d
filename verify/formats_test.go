package verify_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// TestFormatsPublishedCases: the cases of testdata/real that declare with
// x-mut2cel-formats (cert-manager's CertificateRequest .spec, Karpenter's
// NodeClaim .spec, JobSet's documented fields) translate, and verify
// finds their translations exact; without the modifier each is refused,
// and the refusal names it.
func TestFormatsPublishedCases(t *testing.T) {
	const pairs = 400
	var cases []corpus.Case
	for _, c := range corpus.Cases(t) {
		if strings.HasSuffix(c.Name, "-formats") {
			cases = append(cases, c)
		}
	}
	found := len(cases)
	for _, c := range corpus.Sample(cases, 1) { // all of them in the full run
		t.Run(c.Name, func(t *testing.T) {
			doc := c.Declared(t)
			kube := translate.DefaultKubeVersion
			if c.KubeVersion != "" {
				var err error
				if kube, err = translate.ParseKubeVersion(c.KubeVersion); err != nil {
					t.Fatal(err)
				}
			}
			opts := translate.Options{KubeVersion: kube, AllServedVersions: c.AllVersions}
			res, err := translate.Translate(doc, opts)
			if err != nil {
				t.Fatalf("Translate: %v", err)
			}
			declared, err := declread.CRD(doc, nil, c.AllVersions)
			if err != nil {
				t.Fatalf("Declared: %v", err)
			}
			rep, err := verify.Verify(declared, res.Translated, verify.Options{Pairs: pairs, Seed: 1, Counterexamples: 1})
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			for _, v := range rep.Versions {
				for _, ce := range v.Counterexamples {
					t.Errorf("version %s: disagreement:\n%s", v.Version, ce.YAML())
				}
				if v.Failed() {
					t.Errorf("version %s: failed: %d disagreements in %d pairs, untested %v, unexercised %v, %d set aside",
						v.Version, v.Disagreements, v.Pairs, v.Untested(), v.Unexercised(), v.Invalid)
				}
			}
			without := withoutFormats(t, c)
			_, err = translate.Translate(without.Declared(t), opts)
			var terr *translate.Error
			if !errors.As(err, &terr) || !strings.Contains(err.Error(), "x-mut2cel-formats: CompareAsValues") {
				t.Errorf("without the modifier: Translate = %v, want a refusal that names x-mut2cel-formats: CompareAsValues", err)
			}
		})
	}
	if found < 3 {
		t.Errorf("%d cases with the modifier in testdata/real/cases.yaml, want the 3 published ones", found)
	}
}

// withoutFormats returns c with the modifier taken out of every
// declaration.
func withoutFormats(t *testing.T, c corpus.Case) corpus.Case {
	t.Helper()
	out := c
	out.Declarations = map[string]map[string]map[string]interface{}{}
	for v, paths := range c.Declarations {
		out.Declarations[v] = map[string]map[string]interface{}{}
		for p, exts := range paths {
			kept := map[string]interface{}{}
			for ext, value := range exts {
				if ext != "x-mut2cel-formats" {
					kept[ext] = value
				}
			}
			out.Declarations[v][p] = kept
		}
	}
	return out
}
