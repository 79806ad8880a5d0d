package costest_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/golden"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// comparisonDoc is where the comparison table is published; the test keeps
// it equal to the golden file.
const comparisonDoc = "../docs/cost.md"

// comparisons pair a declaration with the cheapest hand-written rules that
// give the same guarantee (docs/semantics.md): a rule on the field, which
// runs only while the field exists on both sides, and a rule on the root,
// which catches the field or its parent being removed or added. The field
// {F} sits in an optional spec.
var comparisons = []struct {
	pattern     string
	field       string // the schema of spec.f, with {DECL} where the declaration goes
	declaration string
	fieldRule   string
	rootRule    string
}{
	{"immutable string (maxLength 64)", "type: string\nmaxLength: 64\n{DECL}", "x-kubernetes-mutability: Immutable",
		"self == oldSelf",
		"(has(self.spec) && has(self.spec.f)) == (has(oldSelf.spec) && has(oldSelf.spec.f))"},
	{"immutable atomic list (16 strings of 64)", "type: array\nmaxItems: 16\nitems: {type: string, maxLength: 64}\n{DECL}", "x-kubernetes-mutability: Immutable",
		"self == oldSelf",
		"(has(self.spec) && has(self.spec.f)) == (has(oldSelf.spec) && has(oldSelf.spec.f))"},
	{"add-only set (16 strings of 64)", "type: array\nmaxItems: 16\nx-kubernetes-list-type: set\nitems: {type: string, maxLength: 64}\n{DECL}", "x-kubernetes-key-mutability: AddOnly",
		"oldSelf.all(x, x in self)",
		"!(has(oldSelf.spec) && has(oldSelf.spec.f)) || size(oldSelf.spec.f) == 0 || (has(self.spec) && has(self.spec.f))"},
	{"add-only map keys (16 strings of 64)", "type: object\nmaxProperties: 16\nadditionalProperties: {type: string, maxLength: 64}\n{DECL}", "x-kubernetes-key-mutability: AddOnly",
		"oldSelf.all(k, k in self)",
		"!(has(oldSelf.spec) && has(oldSelf.spec.f)) || size(oldSelf.spec.f) == 0 || (has(self.spec) && has(self.spec.f))"},
	{"add-only list-map keys (16 items)", "type: array\nmaxItems: 16\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [name]\n" +
		"items: {type: object, required: [name], properties: {name: {type: string, maxLength: 64}, port: {type: integer}}}\n{DECL}", "x-kubernetes-key-mutability: AddOnly",
		"oldSelf.all(e, self.exists(x, x.name == e.name))",
		"!(has(oldSelf.spec) && has(oldSelf.spec.f)) || size(oldSelf.spec.f) == 0 || (has(self.spec) && has(self.spec.f))"},
	{"remove-only map keys (16 strings of 64)", "type: object\nmaxProperties: 16\nadditionalProperties: {type: string, maxLength: 64}\n{DECL}", "x-kubernetes-key-mutability: RemoveOnly",
		"self.all(k, k in oldSelf)",
		"!(has(self.spec) && has(self.spec.f)) || size(self.spec.f) == 0 || (has(oldSelf.spec) && has(oldSelf.spec.f))"},
}

// TestGeneratedNoCostlierThanHandWritten checks the goal of docs/cost.md:
// for each declaration pattern the generated rules cost no more than the
// cheapest hand-written rules with the same guarantee, and keeps the table
// in docs/cost.md current.
func TestGeneratedNoCostlierThanHandWritten(t *testing.T) {
	var table strings.Builder
	table.WriteString("| pattern | generated rules | cost | hand-written rules | cost |\n|---|---|---|---|---|\n")
	env := kube.NewRuleEnvSet(31)
	for _, c := range comparisons {
		declared := strings.ReplaceAll(c.field, "{DECL}", c.declaration+"\n")
		res, err := translate.Translate(testcrd.WithSchema(t, comparisonSchema(declared)), translate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if len(res.Bounds) > 0 {
			t.Fatalf("%s: bounds added %v; the comparison needs a bounded schema", c.pattern, res.Bounds)
		}
		generated, err := costest.Estimate(versionSchema(t, res.Translated), env)
		if err != nil {
			t.Fatal(err)
		}
		hand := strings.ReplaceAll(c.field, "{DECL}", rule(c.fieldRule))
		handReport, err := costest.Estimate(schemaFrom(t, comparisonSchema(hand)+"x-kubernetes-validations:\n- rule: "+quote(c.rootRule)+"\n"), env)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range append(generated.Costs, handReport.Costs...) {
			if r.Error != "" {
				t.Fatalf("%s: %s does not compile: %s", c.pattern, r.Expression, r.Error)
			}
		}
		if generated.Total > handReport.Total {
			t.Errorf("%s: generated rules cost %d, hand-written %d", c.pattern, generated.Total, handReport.Total)
		}
		fmt.Fprintf(&table, "| %s | %s | %d | `%s` on the field; `%s` on the root | %d |\n",
			c.pattern, ruleList(generated), generated.Total, cell(c.fieldRule), cell(c.rootRule), handReport.Total)
	}
	golden.Check(t, "testdata/comparison.md", []byte(table.String()))
	doc, err := os.ReadFile(comparisonDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), table.String()) {
		t.Errorf("%s does not contain the current comparison table (testdata/comparison.md); copy it there", comparisonDoc)
	}
}

func comparisonSchema(field string) string {
	return "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      f:\n" + indent(field, 8)
}

func ruleList(r *costest.Report) string {
	parts := make([]string, len(r.Costs))
	for i, c := range r.Costs {
		where := "on the root"
		if len(c.Node) > 0 {
			where = "on the field"
		}
		parts[i] = fmt.Sprintf("`%s` %s", cell(c.Expression), where)
	}
	return strings.Join(parts, "; ")
}

// cell escapes the pipes of a CEL expression for a Markdown table.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
