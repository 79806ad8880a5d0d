package infer

import (
	"os"
	"strings"
	"testing"
)

// The thresholds the inference must keep on the documented intent
// written by hand (testdata/truth), stated in docs/infer.md with the
// numbers measured. Precision is of the sure proposals, recall of the
// intent; both by the units of measure_test.go. Against the audit's
// declarations as written, precision is taken of the update constraints
// only: the audit declares the unions of the rules it audited, not every
// union its CRDs publish, so a right union it left out would count as
// wrong.
var thresholds = map[string]struct {
	precision, recall float64
	unionsInPrecision bool
}{
	"audit":       {0.9, 0.9, false},
	"development": {0.95, 0.9, true},
	"heldout":     {0.9, 0.8, true},
}

// TestPrecisionRecall measures the sure proposals, after translate has
// vetted them, against the declarations of docs/audit.md as the audit
// wrote them (audit: in its scope only), completed by the supplement
// (development), and on the held-out CRDs (heldout).
func TestPrecisionRecall(t *testing.T) {
	doc, err := os.ReadFile("../../docs/infer.md")
	if err != nil {
		t.Fatal(err)
	}
	// The audit's part and the development part read the same CRDs: each
	// is inferred and vetted once.
	vetted := map[string]*Result{}
	for _, part := range []string{"audit", "development", "heldout"} {
		t.Run(part, func(t *testing.T) {
			if testing.Short() && part != "heldout" {
				t.Skip("the held-out part alone: the development set is the larger")
			}
			name := part
			if part == "audit" {
				name = "development"
			}
			s := newScore()
			for _, c := range truthCases(t, name, part != "audit") {
				for _, m := range c.crds {
					key := c.file + "\x00" + m.Name
					r, ok := vetted[key]
					if !ok {
						r = Infer(m)
						if unplaced := r.Vet("proposals.yaml", translator(m.Document())); len(unplaced) > 0 {
							t.Logf("%s: %s: translate's problems at no proposal: %v", c.file, m.Name, unplaced)
						}
						vetted[key] = r
					}
					s.add(c.file, m, truthUnits(m, c.sets), proposalUnits(r), c.scope)
				}
			}
			p, r := s.totals()
			t.Logf("%s: precision %.3f, recall %.3f\n%s", part, p, r, s.table())
			for _, m := range s.misses {
				t.Log(m)
			}
			want := thresholds[part]
			if !want.unionsInPrecision {
				p = ratio(sum(s.right)-s.right[unionKind], sum(s.proposed)-s.proposed[unionKind])
			}
			if p < want.precision || r < want.recall {
				t.Errorf("%s: precision %.3f, recall %.3f; want at least %.2f and %.2f", part, p, r, want.precision, want.recall)
			}
			checkKinds(t, part, s)
			if table := s.table(); !strings.Contains(string(doc), table) {
				t.Errorf("docs/infer.md does not show the table of %s as measured:\n%s", part, table)
			}
		})
	}
}

// minKindUnits is how many units a kind must have for its own precision
// and recall to be held to the thresholds of its part: fewer say little.
const minKindUnits = 5

// checkKinds holds each kind of unit of a part, alone, to the part's
// thresholds: a kind that does badly cannot hide behind the others. The
// unions are left out of precision where the part leaves them out.
func checkKinds(t *testing.T, part string, s *score) {
	t.Helper()
	want := thresholds[part]
	for kind, n := range s.proposed {
		if p := ratio(s.right[kind], n); n >= minKindUnits && (kind != unionKind || want.unionsInPrecision) && p < want.precision {
			t.Errorf("%s, %s: precision %.3f of %d proposed, want at least %.2f", part, kind, p, n, want.precision)
		}
	}
	for kind, n := range s.intended {
		if r := ratio(s.found[kind], n); n >= minKindUnits && r < want.recall {
			t.Errorf("%s, %s: recall %.3f of %d intended, want at least %.2f", part, kind, r, n, want.recall)
		}
	}
}
