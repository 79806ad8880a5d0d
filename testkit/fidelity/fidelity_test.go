package fidelity

import (
	"strings"
	"testing"
)

const input = `spec:
  description: 'A long description
    on two lines.'
  x-kubernetes-validations:
  - message: field is immutable
    rule: self == oldSelf
  type: string
`

func TestProblems(t *testing.T) {
	cases := []struct {
		name, out string
		want      []string // one substring per problem
	}{{
		name: "unchanged", out: input,
	}, {
		name: "rule replaced",
		out: strings.Replace(input, "  - message: field is immutable\n",
			"  - message: spec is immutable\n    reason: FieldValueForbidden\n", 1),
	}, {
		name: "annotations added",
		out:  "metadata:\n  annotations:\n    mut2cel.io/generated: |\n      v1:\n        .spec: [\"a\"]\n" + input,
		want: []string{`line 1 of the output is not the input's and no edit writes it: "metadata:\n"`},
	}, {
		name: "description joined",
		out:  strings.Replace(input, "description\n    on two", "description on two", 1),
		want: []string{"line 2 of the input", "line 3 of the input", "line 2 of the output"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Problems([]byte(input), []byte(c.out), RuleLines([]byte(input)))
			if len(got) != len(c.want) {
				t.Fatalf("Problems = %q, want %d problems like %q", got, len(c.want), c.want)
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestRuleLines(t *testing.T) {
	got := RuleLines([]byte(input))
	for n := 1; n <= 7; n++ {
		if want := n >= 4 && n <= 6; got[n] != want {
			t.Errorf("RuleLines: line %d owned = %v, want %v", n, got[n], want)
		}
	}
}
