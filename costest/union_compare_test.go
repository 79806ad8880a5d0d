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

// unionMembers are the members of the filter union of examples/unions.yaml,
// after the Gateway API's HTTPRoute filters.
var unionMembers = []struct{ name, value string }{
	{"requestHeaderModifier", "RequestHeaderModifier"},
	{"requestMirror", "RequestMirror"},
	{"requestRedirect", "RequestRedirect"},
	{"urlRewrite", "URLRewrite"},
}

// unionFilter is a filter in a list of 16 filters in a list of 16 rules:
// every rule on it runs up to 256 times per object. {X} is where the
// union declaration or the hand-written rules go.
const unionFilter = `type: object
properties:
  spec:
    type: object
    properties:
      rules:
        type: array
        maxItems: 16
        items:
          type: object
          properties:
            filters:
              type: array
              maxItems: 16
              items:
                type: object
                required: [type]
{X}                properties:
                  type: {type: string, maxLength: 32}
                  requestHeaderModifier: {type: object, properties: {name: {type: string, maxLength: 64}}}
                  requestMirror: {type: object, properties: {name: {type: string, maxLength: 64}}}
                  requestRedirect: {type: object, properties: {name: {type: string, maxLength: 64}}}
                  urlRewrite: {type: object, properties: {name: {type: string, maxLength: 64}}}
`

// unionForms are the ways of writing one union on the filter: mut2cel's
// declarations (translated) beside the rules others write for the same
// union.
func unionForms() []struct {
	form, declaration string
	rules             []string
} {
	var gateway, has []string
	for _, m := range unionMembers {
		gateway = append(gateway,
			fmt.Sprintf("!(has(self.%s) && self.type != '%s')", m.name, m.value),
			fmt.Sprintf("!(!has(self.%s) && self.type == '%s')", m.name, m.value))
		has = append(has, "has(self."+m.name+")")
	}
	filter := "[" + strings.Join(has, ",") + "].filter(x,x==true).size()"
	var withValues, without []string
	for _, m := range unionMembers {
		withValues = append(withValues, m.name+": "+m.value)
		without = append(without, m.name+": ")
	}
	return []struct {
		form, declaration string
		rules             []string
	}{
		{form: "mut2cel, discriminated, exactly one", declaration: "[{discriminator: type, fields-to-discriminateBy: {" + strings.Join(withValues, ", ") + "}, exactlyOne: true}]"},
		{form: "Gateway API, hand-written (two rules per member)", rules: gateway},
		{form: "mut2cel, exactly one, no discriminator", declaration: "[{fields-to-discriminateBy: {" + strings.Join(without, ", ") + "}, exactlyOne: true}]"},
		{form: "controller-gen v0.21 ExactlyOneOf", rules: []string{filter + " == 1"}},
		{form: "mut2cel, at most one, no discriminator", declaration: "[{fields-to-discriminateBy: {" + strings.Join(without, ", ") + "}}]"},
		{form: "controller-gen v0.21 AtMostOneOf", rules: []string{filter + " <= 1"}},
	}
}

// TestUnionCostComparison estimates, with the apiserver's estimator at
// Kubernetes 1.31, the rules of one union of four members in mut2cel's
// forms and in the forms controller-gen and the Gateway API write, and
// keeps the table in docs/cost.md current. mut2cel's sums of conditionals
// must cost less than controller-gen's filter().size(), and its
// discriminated rules no more than the Gateway API's.
func TestUnionCostComparison(t *testing.T) {
	var table strings.Builder
	table.WriteString("| form | rules | cost per evaluation | total (256 filters) |\n|---|---|---|---|\n")
	env := kube.NewRuleEnvSet(31)
	totals := map[string]uint64{}
	for _, f := range unionForms() {
		var r *costest.Report
		var err error
		if f.declaration != "" {
			schema := strings.ReplaceAll(unionFilter, "{X}", indent("x-kubernetes-unions: "+f.declaration+"\n", 16))
			res, terr := translate.Translate(testcrd.WithSchema(t, schema), translate.Options{})
			if terr != nil {
				t.Fatalf("%s: %v", f.form, terr)
			}
			r, err = costest.Estimate(versionSchema(t, res.Translated), env)
		} else {
			var rules strings.Builder
			rules.WriteString("x-kubernetes-validations:\n")
			for _, text := range f.rules {
				rules.WriteString("- rule: " + quote(text) + "\n")
			}
			r, err = costest.Estimate(schemaFrom(t, strings.ReplaceAll(unionFilter, "{X}", indent(rules.String(), 16))), env)
		}
		if err != nil {
			t.Fatal(err)
		}
		var perCall uint64
		for _, c := range r.Costs {
			if c.Error != "" {
				t.Fatalf("%s: %s does not compile: %s", f.form, c.Expression, c.Error)
			}
			perCall += c.PerCall
		}
		totals[f.form] = r.Total
		fmt.Fprintf(&table, "| %s | %d | %d | %d |\n", f.form, len(r.Costs), perCall, r.Total)
	}
	for _, pair := range [][2]string{
		{"mut2cel, exactly one, no discriminator", "controller-gen v0.21 ExactlyOneOf"},
		{"mut2cel, at most one, no discriminator", "controller-gen v0.21 AtMostOneOf"},
	} {
		if totals[pair[0]] >= totals[pair[1]] {
			t.Errorf("%s costs %d, not less than %s, %d", pair[0], totals[pair[0]], pair[1], totals[pair[1]])
		}
	}
	if a, b := totals["mut2cel, discriminated, exactly one"], totals["Gateway API, hand-written (two rules per member)"]; a > b {
		t.Errorf("mut2cel's discriminated union costs %d, more than the Gateway API's %d", a, b)
	}
	golden.Check(t, "testdata/unions.md", []byte(table.String()))
	doc, err := os.ReadFile(comparisonDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), table.String()) {
		t.Errorf("%s does not contain the current union table (testdata/unions.md); copy it there", comparisonDoc)
	}
}
