package costrun_test

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/driver/costrun"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
)

// kubeVersion is the version every case is audited for, pinned so that a
// new default does not move the golden costs.
var kubeVersion = translate.KubeVersion{Major: 1, Minor: 31}

// crd is a CRD document of kind in the group example.com around versions,
// the YAML items of spec.versions.
func crd(kind string, versions ...string) string {
	singular := strings.ToLower(kind)
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: %ss.example.com
spec:
  group: example.com
  names: {plural: %[1]ss, singular: %[1]s, kind: %s, listKind: %[2]sList}
  scope: Namespaced
  versions:
`, singular, kind) + strings.Join(versions, "")
}

// version is one item of spec.versions with the given openAPIV3Schema;
// the first version of a CRD is the stored one.
func version(name string, served, storage bool, schema string) string {
	lines := strings.Split(strings.TrimRight(schema, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "        " + l
	}
	return fmt.Sprintf("  - name: %s\n    served: %t\n    storage: %t\n    schema:\n      openAPIV3Schema:\n%s\n",
		name, served, storage, strings.Join(lines, "\n"))
}

// v1 is a CRD's only version, served and stored.
func v1(schema string) string { return version("v1", true, true, schema) }

// row is what a case expects of one line of a version's rules.
type row struct {
	node, rule string
	generated  bool
}

// versionWant is what a case expects of one audited version.
type versionWant struct {
	name string
	// rules are in the report's order, costliest first.
	rules  []row
	bounds []costrun.NodeBound
	// exceeds are the limits crossed, as "limit path".
	exceeds []string
	// suggestions are one per expression over a limit, and one for the
	// version when only its total crosses a limit: the bounds as
	// "keyword value node", or "(no bound)" when only Detail says why.
	suggestions []string
	// versionDetail is part of the detail of the version's suggestion;
	// "" when there is none.
	versionDetail string
}

const immutableClass = `type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.replicas >= 0
      message: replicas must not be negative
    properties:
      replicas: {type: integer}
      class:
        type: string
        maxLength: 63
        x-kubernetes-mutability: Immutable
`

// quadraticHosts compares every pair of an unbounded list of unbounded
// strings: far over the per-expression limit.
const quadraticHosts = `type: object
properties:
  spec:
    type: object
    properties:
      class:
        type: string
        maxLength: 63
        %s
      hosts:
        type: array
        items: {type: string}
        x-kubernetes-validations:
        - rule: self.all(x, self.all(y, x == y))
`

const hostsPath = "openAPIV3Schema.properties[spec].properties[hosts].x-kubernetes-validations[0].rule"

// The cases of TestDocument; TestWriteText prints each into its golden
// file under testdata.
var cases = []struct {
	name, doc string
	versions  []versionWant
	rejected  bool
	// translateError is part of CRD.TranslateError, "" when translate
	// succeeded.
	translateError string
	golden         string
}{{
	name: "declared immutable, with a hand-written rule",
	doc:  crd("Widget", v1(immutableClass)),
	versions: []versionWant{{name: "v1", rules: []row{
		{".spec.class", "self == oldSelf", true},
		{".", "(has(self.spec) && has(self.spec.class)) == (has(oldSelf.spec) && has(oldSelf.spec.class))", true},
		{".spec", "self.replicas >= 0", false},
	}}},
	golden: "immutable.txt",
}, {
	name: "hand-written rule over the per-expression limit",
	doc:  crd("Gadget", v1(fmt.Sprintf(quadraticHosts, ""))),
	versions: []versionWant{{
		name:  "v1",
		rules: []row{{".spec.hosts", "self.all(x, self.all(y, x == y))", false}},
		exceeds: []string{
			"per-expression " + hostsPath,
			"per-version openAPIV3Schema",
			"per-call " + hostsPath,
			"per-object openAPIV3Schema",
		},
		suggestions: []string{"maxItems 100 .spec.hosts, maxLength 500 .spec.hosts[*]"},
	}},
	rejected: true,
	golden:   "over-limit.txt",
}, {
	// Translate refuses to add rules to a CRD the apiserver would reject;
	// the report shows why, on the CRD's own rules.
	name: "declared, but a hand-written rule is over the limit",
	doc:  crd("Gizmo", v1(fmt.Sprintf(quadraticHosts, "x-kubernetes-mutability: Immutable"))),
	versions: []versionWant{{
		name:  "v1",
		rules: []row{{".spec.hosts", "self.all(x, self.all(y, x == y))", false}},
		exceeds: []string{
			"per-expression " + hostsPath,
			"per-version openAPIV3Schema",
			"per-call " + hostsPath,
			"per-object openAPIV3Schema",
		},
		suggestions: []string{"maxItems 100 .spec.hosts, maxLength 500 .spec.hosts[*]"},
	}},
	rejected:       true,
	translateError: "estimated rule cost exceeds budget",
	golden:         "declared-over-limit.txt",
}, {
	// A messageExpression is estimated, and counted in the total, apart
	// from its rule. (string(self.min) would be unbounded, and over the
	// limit: the estimator does not bound the digits of an int.)
	name: "under the limits, with a messageExpression",
	doc: crd("Widget", v1(`type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: self.min <= self.max
      messageExpression: "self.name + ' has min above max'"
    properties:
      name: {type: string, maxLength: 63}
      min: {type: integer}
      max: {type: integer}
`)),
	versions: []versionWant{{name: "v1", rules: []row{
		{".spec", "self.name + ' has min above max'", false},
		{".spec", "self.min <= self.max", false},
	}}},
	golden: "message-expression.txt",
}, {
	// The input of cmd/mut2cel/testdata/cost/needs-bounds.yaml.
	name: "bounds added by translate",
	doc: crd("Widget", v1(`type: object
properties:
  spec:
    type: object
    properties:
      finalizers:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string}
      labels:
        type: object
        x-kubernetes-key-mutability: AddOnly
        additionalProperties: {type: string}
`)),
	versions: []versionWant{{
		name: "v1",
		rules: []row{
			{".spec.finalizers", "oldSelf.all(e1, e1 in self)", true},
			{".spec.labels", "oldSelf.all(k2, k2 in self)", true},
			{".", "!(has(oldSelf.spec) && has(oldSelf.spec.finalizers)) || size(oldSelf.spec.finalizers) == 0 || (has(self.spec) && has(self.spec.finalizers))", true},
			{".", "!(has(oldSelf.spec) && has(oldSelf.spec.labels)) || size(oldSelf.spec.labels) == 0 || (has(self.spec) && has(self.spec.labels))", true},
		},
		bounds: []costrun.NodeBound{{Path: "openAPIV3Schema.properties[spec].properties[finalizers]", Node: ".spec.finalizers", Keyword: "maxItems", Value: 2000}},
		exceeds: []string{
			"per-call openAPIV3Schema.properties[spec].properties[finalizers].x-kubernetes-validations[0].rule",
			"per-call openAPIV3Schema.properties[spec].properties[labels].x-kubernetes-validations[0].rule",
		},
		suggestions: []string{"(no bound)", "(no bound)"},
	}},
	golden: "bounds-added.txt",
}, {
	name:     "no declarations, no rules",
	doc:      crd("Plain", v1("type: object\nproperties:\n  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n")),
	versions: []versionWant{{name: "v1"}},
	golden:   "empty.txt",
}, {
	// Every version is audited, served or not, in the CRD's order. The
	// unserved v1alpha1 carries by hand the very rule translate generates
	// in v1: only v1's is marked.
	name: "versions in order, generated marked per version",
	doc: crd("Widget",
		version("v1alpha1", false, false, `type: object
properties:
  spec:
    type: object
    properties:
      class:
        type: string
        maxLength: 63
        x-kubernetes-validations:
        - rule: self == oldSelf
`),
		version("v1", true, true, `type: object
properties:
  spec:
    type: object
    properties:
      class:
        type: string
        maxLength: 63
        x-kubernetes-mutability: Immutable
`)),
	versions: []versionWant{
		{name: "v1alpha1", rules: []row{{".spec.class", "self == oldSelf", false}}},
		{name: "v1", rules: []row{
			{".spec.class", "self == oldSelf", true},
			{".", "(has(self.spec) && has(self.spec.class)) == (has(oldSelf.spec) && has(oldSelf.spec.class))", true},
		}},
	},
	golden: "versions.txt",
}, {
	// Eleven rules, each under every limit of its own, cross the
	// per-version limit together: before, no suggestion said anything.
	// Their lists are bounded already, so no bound brings them under, and
	// the version's suggestion says so.
	name:     "only the version over its limit",
	doc:      crd("Mesh", v1(quadraticItems(11))),
	versions: []versionWant{quadraticItemsWant(11)},
	rejected: true,
	golden:   "over-version.txt",
}}

// quadraticItems is a schema of n lists .spec.h1... of at most 30 items,
// each item with a rule whose cost grows with the square of its own list
// v: 310,000 a call, 9.3 million with the cardinality.
func quadraticItems(n int) string {
	var b strings.Builder
	b.WriteString("type: object\nproperties:\n  spec:\n    type: object\n    properties:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "      h%d:\n        type: array\n        maxItems: 30\n        items:\n          type: object\n", i)
		b.WriteString("          properties:\n            v: {type: array, maxItems: 100, items: {type: string, maxLength: 64}}\n")
		b.WriteString("          x-kubernetes-validations:\n          - rule: self.v.all(x, self.v.all(y, x == y))\n")
	}
	return b.String()
}

// quadraticItemsWant is the report on quadraticItems(n), n of at least 11:
// only the version over the per-version and per-object limits.
func quadraticItemsWant(n int) versionWant {
	var names []string
	for i := 1; i <= n; i++ {
		names = append(names, fmt.Sprintf("h%d", i))
	}
	sort.Strings(names)
	want := versionWant{name: "v1", exceeds: []string{"per-version openAPIV3Schema", "per-object openAPIV3Schema"},
		suggestions: []string{"(no bound)"}, versionDetail: "brings its rules under the per-version limit together"}
	for _, name := range names {
		want.rules = append(want.rules, row{".spec." + name + "[*]", "self.v.all(x, self.v.all(y, x == y))", false})
	}
	return want
}

func TestDocument(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := document(t, c.doc)
			if len(got.Versions) != len(c.versions) {
				t.Fatalf("Document(%s) has %d versions, want %d", c.name, len(got.Versions), len(c.versions))
			}
			for i, want := range c.versions {
				v := got.Versions[i]
				checkVersion(t, v)
				if v.Name != want.name {
					t.Errorf("version %d is %s, want %s", i, v.Name, want.name)
				}
				if rs := rows(v.Rules); !reflect.DeepEqual(rs, want.rules) {
					t.Errorf("version %s: rules\n%v\nwant\n%v", v.Name, rs, want.rules)
				}
				if !reflect.DeepEqual(v.BoundsAdded, append([]costrun.NodeBound{}, want.bounds...)) {
					t.Errorf("version %s: bounds added %+v, want %+v", v.Name, v.BoundsAdded, want.bounds)
				}
				if x := exceeds(v.Exceeds); !reflect.DeepEqual(x, want.exceeds) {
					t.Errorf("version %s: exceeds\n%q\nwant\n%q", v.Name, x, want.exceeds)
				}
				if s := suggestions(v.Suggestions); !reflect.DeepEqual(s, want.suggestions) {
					t.Errorf("version %s: suggestions %q, want %q", v.Name, s, want.suggestions)
				}
				if got := versionSuggestion(v.Suggestions); want.versionDetail == "" && got != nil ||
					want.versionDetail != "" && (got == nil || !strings.Contains(got.Detail, want.versionDetail)) {
					t.Errorf("version %s: version suggestion %+v, want one saying %q", v.Name, got, want.versionDetail)
				}
			}
			if r := (&costrun.Report{CRDs: []costrun.CRDCosts{*got}}); r.Rejected() != c.rejected {
				t.Errorf("Rejected() = %t, want %t", r.Rejected(), c.rejected)
			}
			if !strings.Contains(got.TranslateError, c.translateError) || (c.translateError == "") != (got.TranslateError == "") {
				t.Errorf("TranslateError = %q, want it to contain %q", got.TranslateError, c.translateError)
			}
		})
	}
}

// document audits doc as the first document of in.yaml.
func document(t *testing.T, doc string) *costrun.CRDCosts {
	t.Helper()
	got, err := costrun.Document("in.yaml", 0, testcrd.Decode(t, doc), translate.Options{KubeVersion: kubeVersion}, nil)
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if got.File != "in.yaml" || got.Document != 1 {
		t.Errorf("Document names %s document %d, want in.yaml document 1", got.File, got.Document)
	}
	return got
}

// checkVersion checks what holds of every audited version: the total is
// the sum of the rules' costs (saturating, as the apiserver adds), each
// rule's cost its per-call cost times its cardinality, the rules
// costliest first, and a suggestion for every expression over a limit.
// It also checks that no rule costs 0: not true of every rule (a constant
// messageExpression costs 0), but of every rule of the cases, which all
// read the object.
func checkVersion(t *testing.T, v costrun.Version) {
	t.Helper()
	var sum uint64
	for i, r := range v.Rules {
		sum = saturatingAdd(sum, r.Cost)
		if r.Cost == 0 || r.PerCall == 0 || r.Cardinality == 0 {
			t.Errorf("version %s: rule %q costs %d = %d x %d, want non-zero figures", v.Name, r.Rule, r.Cost, r.PerCall, r.Cardinality)
		}
		if hi, lo := bits(r.PerCall, r.Cardinality); hi == 0 && lo != r.Cost || hi != 0 && r.Cost != math.MaxUint64 {
			t.Errorf("version %s: rule %q costs %d, want %d x %d", v.Name, r.Rule, r.Cost, r.PerCall, r.Cardinality)
		}
		if i > 0 && v.Rules[i-1].Cost < r.Cost {
			t.Errorf("version %s: rule %q (%d) after a cheaper one (%d)", v.Name, r.Rule, r.Cost, v.Rules[i-1].Cost)
		}
	}
	if v.TotalCost != sum {
		t.Errorf("version %s: total %d, want the sum of its rules %d", v.Name, v.TotalCost, sum)
	}
	over := map[string]bool{}
	for _, x := range v.Exceeds {
		if x.Path != "openAPIV3Schema" {
			over[x.Path] = true
		}
	}
	suggested := map[string]bool{}
	for _, s := range v.Suggestions {
		if s.Path != "openAPIV3Schema" {
			suggested[s.Path] = true
		}
	}
	if !reflect.DeepEqual(over, suggested) {
		t.Errorf("version %s: suggestions for %v, want one for each expression over a limit %v", v.Name, suggested, over)
	}
}

func saturatingAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// bits is the 128-bit product of a and b.
func bits(a, b uint64) (hi, lo uint64) {
	if a == 0 || b == 0 {
		return 0, 0
	}
	lo = a * b
	if lo/b != a {
		return 1, lo
	}
	return 0, lo
}

func rows(rules []costrun.Rule) []row {
	var out []row
	for _, r := range rules {
		out = append(out, row{r.Node, r.Rule, r.Generated})
	}
	return out
}

func exceeds(xs []costrun.Exceeded) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.Limit+" "+x.Path)
	}
	return out
}

// versionSuggestion is the suggestion for the version as a whole, if any.
func versionSuggestion(ss []costrun.Suggestion) *costrun.Suggestion {
	for i := range ss {
		if ss[i].Path == "openAPIV3Schema" {
			return &ss[i]
		}
	}
	return nil
}

func suggestions(ss []costrun.Suggestion) []string {
	var out []string
	for _, s := range ss {
		if len(s.Bounds) == 0 {
			out = append(out, "(no bound)")
			continue
		}
		var parts []string
		for _, b := range s.Bounds {
			parts = append(parts, fmt.Sprintf("%s %d %s", b.Keyword, b.Value, b.Node))
		}
		out = append(out, strings.Join(parts, ", "))
	}
	return out
}

// TestDocumentTranslateError: a translate error that no rule over the
// limits explains is the caller's to report.
func TestDocumentTranslateError(t *testing.T) {
	doc := crd("Widget", v1(`type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Sometimes}
`))
	got, err := costrun.Document("in.yaml", 0, testcrd.Decode(t, doc), translate.Options{KubeVersion: kubeVersion}, nil)
	if err == nil || got != nil {
		t.Fatalf("Document = %+v, %v; want translate's error", got, err)
	}
	if !strings.Contains(err.Error(), "Sometimes") {
		t.Errorf("Document error %q does not name the bad value", err)
	}
}

func TestRejectedEmpty(t *testing.T) {
	if (&costrun.Report{}).Rejected() {
		t.Error("an empty report is rejected")
	}
}
