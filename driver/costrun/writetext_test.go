package costrun_test

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/costrun"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

// TestWriteText prints each case of TestDocument into its golden file and
// checks that every line fits in Width columns.
func TestWriteText(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &costrun.Report{KubeVersion: kubeVersion.String(), CRDs: []costrun.CRDCosts{*document(t, c.doc)}}
			var b bytes.Buffer
			if err := costrun.WriteText(&b, r); err != nil {
				t.Fatal(err)
			}
			checkWidth(t, b.String())
			golden.Check(t, filepath.Join("testdata", c.golden), b.Bytes())
		})
	}
}

func checkWidth(t *testing.T, text string) {
	t.Helper()
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if n := len([]rune(line)); n > costrun.Width {
			t.Errorf("line %d has %d columns, want at most %d:\n%s", i+1, n, costrun.Width, line)
		}
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %d ends in spaces: %q", i+1, line)
		}
	}
}

// TestWriteTextWidth prints reports wider than any case of TestDocument:
// the largest costs, a node path too long for the table, rules longer
// than the line, a rule over several lines, long messages. Every line
// still fits; the table keeps the end of a node path and the start of a
// rule. (A node path longer than a whole line cannot fit in the lines
// around the table, which break only at spaces: see TestWriteWrapped.)
func TestWriteTextWidth(t *testing.T) {
	deep := ".spec" + strings.Repeat(".aVeryLongPropertyName", 4) + ".leaf"
	long := "self.all(x, " + strings.Repeat("x.startsWith('prefix') && ", 8) + "true)"
	for _, c := range []struct {
		name string
		rule costrun.Rule
		// want are parts of the rule's line in the table, in order.
		want []string
	}{
		{"short", costrun.Rule{Node: ".spec", Rule: "self.a <= self.b", Cost: 5, PerCall: 5, Cardinality: 1},
			[]string{"5  ", "0.00%", ".spec  ", "self.a <= self.b"}},
		{"largest costs", costrun.Rule{Node: ".spec", Rule: long, Cost: math.MaxUint64, PerCall: math.MaxUint64, Cardinality: math.MaxUint64, Generated: true},
			[]string{"18446744073709551615  >10000%  18446744073709551615  18446744073709551615", "(generated) self.all(x, ", "..."}},
		{"deep node", costrun.Rule{Node: deep, Rule: long, Cost: 7, PerCall: 7, Cardinality: 1},
			[]string{"...", "aVeryLongPropertyName.leaf  self.all(x, x.startsWith", "..."}},
		{"rule over lines", costrun.Rule{Node: ".spec", Rule: "self.a <= self.b\n  &&\tself.b <= self.c\n", Cost: 9, PerCall: 9, Cardinality: 1},
			[]string{".spec  self.a <= self.b && self.b <= self.c"}},
		{"compile error", costrun.Rule{Node: deep, Rule: "self.nope", Cost: 1, PerCall: 1, Cardinality: 1, Error: "undefined field 'nope'"},
			[]string{"...", "aVeryLongPropertyName.leaf  self.nope [does not compile..."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.rule.Path = "openAPIV3Schema.x-kubernetes-validations[0].rule"
			v := costrun.Version{Name: "v1", TotalCost: c.rule.Cost, Rules: []costrun.Rule{c.rule},
				BoundsAdded: []costrun.NodeBound{{Node: deep, Keyword: "maxItems", Value: 2000}},
				Exceeds: []costrun.Exceeded{{Limit: "per-expression", Static: true, Path: c.rule.Path, Cost: c.rule.Cost, LimitValue: 10000000},
					{Limit: "per-call", Path: c.rule.Path, Cost: c.rule.Cost, LimitValue: 1000000}},
				Suggestions: []costrun.Suggestion{{Path: c.rule.Path, Bounds: []costrun.NodeBound{{Node: deep, Keyword: "maxLength", Value: 253}, {Node: deep + "[*]", Keyword: "maxItems", Value: 64}}},
					{Path: c.rule.Path, Detail: strings.TrimSpace(strings.Repeat("a detail that goes on ", 12))}}}
			r := &costrun.Report{KubeVersion: "1.31", CRDs: []costrun.CRDCosts{{Name: "widgets.example.com", File: "in.yaml", Document: 1,
				TranslateError: "spec: Forbidden: " + strings.Repeat("a reason that goes on ", 12) + "\n  problems:\n", Versions: []costrun.Version{v}}}}
			var b bytes.Buffer
			if err := costrun.WriteText(&b, r); err != nil {
				t.Fatal(err)
			}
			checkWidth(t, b.String())
			line := ruleLine(t, b.String())
			at := 0
			for _, part := range c.want {
				i := strings.Index(line[at:], part)
				if i < 0 {
					t.Fatalf("the rule's line\n%s\ndoes not have %q after column %d", line, part, at)
				}
				at += i + len(part)
			}
			// A rule is cut only when the line has no more room.
			if n := len([]rune(line)); strings.HasSuffix(line, "...") && n != costrun.Width {
				t.Errorf("the rule's line is cut at %d columns, not %d:\n%s", n, costrun.Width, line)
			}
		})
	}
}

// ruleLine is the line after the table's header.
func ruleLine(t *testing.T, text string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines[:len(lines)-1] {
		if strings.HasPrefix(strings.TrimSpace(l), "COST ") {
			return lines[i+1]
		}
	}
	t.Fatalf("no table in:\n%s", text)
	return ""
}
