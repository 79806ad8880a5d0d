package verify

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// causeSchema has a declaration of each extension, and a narrowing one on
// map values, which is reported at the values schema.
const causeSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Immutable}
      labels:
        type: object
        x-kubernetes-key-mutability: RemoveOnly
        additionalProperties: {type: string, x-kubernetes-mutability: AddOnly}`

func TestCauseKey(t *testing.T) {
	c := mustChecker(t, causeSchema)
	decls := c.Declarations()
	class := "x-kubernetes-mutability: Immutable at " + nodePath("spec", "class")
	rule := InvolvedRule{Path: nodePath("spec", "class"), Rule: "self == oldSelf"}
	root := InvolvedRule{Path: "openAPIV3Schema", Rule: "has(self.spec) == has(oldSelf.spec)"}
	for _, tc := range []struct {
		name     string
		old, new string
		v        verdicts // violations are filled in from old and new
		rules    []InvolvedRule
		want     string
	}{
		{"value", `{spec: {class: a}}`, `{spec: {class: b}}`, verdicts{outcome: disagreed}, nil, "missed: value of " + class},
		{"presence", `{spec: {class: a}}`, `{spec: {}}`, verdicts{outcome: disagreed}, nil, "missed: presence of " + class},
		{"two violations of one declaration are one",
			`{spec: {class: a, labels: {a: "1", b: "2"}}}`, `{spec: {class: a, labels: {c: "3", d: "4"}}}`, verdicts{outcome: disagreed}, nil,
			"missed: keys of x-kubernetes-key-mutability: RemoveOnly at " + nodePath("spec", "labels") +
				"; keys of x-kubernetes-mutability: AddOnly at " + nodePath("spec", "labels", "additionalProperties")},
		{"declarations sort by path", `{spec: {class: a, labels: {a: "1"}}}`, `{spec: {labels: {a: "1", b: "2"}}}`, verdicts{outcome: disagreed}, nil,
			"missed: presence of " + class + "; keys of x-kubernetes-key-mutability: RemoveOnly at " + nodePath("spec", "labels")},
		{"denied names the rules, not the values", `{spec: {class: a}}`, `{spec: {class: a}}`, verdicts{outcome: disagreed, denied: true}, []InvolvedRule{root, rule},
			"denied: rule at openAPIV3Schema: has(self.spec) == has(oldSelf.spec); rule at " + nodePath("spec", "class") + ": self == oldSelf"},
		{"an evaluation error while the reference denies", `{spec: {class: a}}`, `{spec: {class: b}}`, verdicts{outcome: evalFailed, denied: true}, []InvolvedRule{rule},
			"evaluation error: rule at " + nodePath("spec", "class") + ": self == oldSelf"},
		{"denied by no single rule", `{}`, `{}`, verdicts{outcome: disagreed, denied: true}, nil, "denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.v.violations = check(t, c, tc.old, tc.new)
			got := causeOf(tc.v, decls, func() []InvolvedRule { return tc.rules }, nil).Key()
			if got != tc.want {
				t.Errorf("causeOf(%s -> %s).Key() = %q, want %q", tc.old, tc.new, got, tc.want)
			}
		})
	}
}

// TestCausesDeduplicate checks that each cause is shrunk once, that the
// shrunk pair keeps its cause, and that every disagreement is counted
// under one cause.
func TestCausesDeduplicate(t *testing.T) {
	for _, tc := range []struct {
		dir      string
		max      int
		causes   []string
		shown    int
		declared []DeclarationReport
	}{{
		dir: "set-order-ignored", max: 3,
		causes: []string{"missed: value of x-kubernetes-mutability: Immutable at " + nodePath("spec", "tags")},
		shown:  1,
		declared: []DeclarationReport{
			{Declaration: reference.Declaration{Path: nodePath("spec", "tags"), Extension: decl.ExtMutability, Value: "Immutable"}, Pairs: 1915, Violating: 1531, Disagreements: 310, Violated: 310},
		},
	}, {
		dir: "map-key-removed", max: 1,
		causes: []string{"evaluation error: rule at " + nodePath("spec", "labels") + ": oldSelf.all(k, self[k] == oldSelf[k])"},
		shown:  1,
		declared: []DeclarationReport{
			{Declaration: reference.Declaration{Path: nodePath("spec", "labels", "additionalProperties"), Extension: decl.ExtMutability, Value: "Immutable"}, Pairs: 860, Violating: 332, Disagreements: 420, Violated: 0},
		},
	}} {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join("../testdata/broken", tc.dir)
			r := mustRun(t, dir, Options{Pairs: 2000, Seed: 1, Counterexamples: tc.max})
			rep, err := r.run()
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			var keys []string
			for _, c := range rep.Causes {
				sum += c.Disagreements
				keys = append(keys, c.Cause.Key())
				if ce := c.Counterexample; ce != nil {
					v, err := r.compare(ce.Old, ce.New)
					if err != nil {
						t.Fatal(err)
					}
					if got := r.cause(ce.Old, ce.New, v).Key(); got != c.Cause.Key() {
						t.Errorf("shrunk pair %d has cause %q, want %q", ce.Pair, got, c.Cause.Key())
					}
				}
			}
			if sum != rep.Disagreements || strings.Join(keys, "\n") != strings.Join(tc.causes, "\n") || len(rep.Counterexamples) != tc.shown {
				t.Errorf("causes of %d disagreements, %d shown:\n%s\nwant %d shown:\n%s\ncounting %d", rep.Disagreements, len(rep.Counterexamples),
					strings.Join(keys, "\n"), tc.shown, strings.Join(tc.causes, "\n"), sum)
			}
			if len(rep.Declarations) != len(tc.declared) {
				t.Fatalf("%d declarations counted, want %d", len(rep.Declarations), len(tc.declared))
			}
			for i, d := range rep.Declarations {
				if *d != tc.declared[i] {
					t.Errorf("declaration %d = %+v, want %+v", i, *d, tc.declared[i])
				}
			}
		})
	}
}

// mustRun prepares the run of the first version of a fixture under
// testdata/broken, as Verify does.
func mustRun(t *testing.T, dir string, opts Options) *versionRun {
	t.Helper()
	declared, translated := testcrd.ReadFile(t, filepath.Join(dir, "declared.yaml")), testcrd.ReadFile(t, filepath.Join(dir, "translated.yaml"))
	opts.NewJudge = newCELJudge
	tv := crdVersions(translated)[0]
	r, err := newVersionRun(translated, crdVersions(declared)[0], tv, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
