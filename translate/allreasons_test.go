package translate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// TestEveryReasonInOneRun checks that a refused declaration names every
// reason it has no exact rule, not only the first one found: each node
// CEL cannot compare, each name it cannot spell, the Kubernetes version
// the index comparisons need, and each rule over the cost limits. Each
// wanted text must be in exactly one reason, and every reason must be
// wanted.
func TestEveryReasonInOneRun(t *testing.T) {
	// Under one Immutable object: a list compared index by index (no
	// maxItems: Kubernetes 1.33), whose items hold a date-time, a field
	// that keeps unknown fields and a name CEL cannot spell.
	const inexact = `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable, properties: {
	  l: {type: array, items: {type: object, properties: {
	    at: {type: string, format: date-time},
	    raw: {type: object, x-kubernetes-preserve-unknown-fields: true},
	    1abc: {type: string, maxLength: 8}}}}}}}}`
	// Under one Immutable object: two list maps keyed by a number, whose
	// items the rules pair by scanning, at the --max-items given.
	const costly = `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable, properties: {
	  a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [num], items: {type: object, required: [num], properties: {num: {type: number}}}},
	  b: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [num], items: {type: object, required: [num], properties: {num: {type: number}}}}}}}}`
	cases := []struct {
		name    string
		schema  string
		opts    translate.Options
		reason  string
		reasons []string
	}{{
		name: "inexact nodes and the version, at 1.31", schema: inexact, opts: translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 31}},
		reason: translate.ReasonIndexComparison, // first: the version lifts it
		reasons: []string{
			"comparing the items of spec.l index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33",
			"property name \"1abc\" cannot be named in a CEL rule",
			"the value at spec.l[*].at is a string with format date-time",
			"the value at spec.l[*].raw keeps unknown fields",
		},
	}, {
		name: "inexact nodes, at 1.33", schema: inexact, opts: translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 33}},
		reason: translate.ReasonFormat,
		reasons: []string{
			"property name \"1abc\" cannot be named in a CEL rule",
			"the value at spec.l[*].at is a string with format date-time",
			"the value at spec.l[*].raw keeps unknown fields",
		},
	}, {
		name: "two lists that need 1.33, in one reason", opts: translate.Options{KubeVersion: translate.KubeVersion{Major: 1, Minor: 31}},
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-mutability: Immutable, properties: {
		  a: {type: array, items: {type: object, properties: {x: {type: string, maxLength: 8}, y: {type: string, maxLength: 8, nullable: true}}}},
		  b: {type: array, items: {type: object, properties: {x: {type: string, maxLength: 8}, y: {type: string, maxLength: 8, nullable: true}}}}}}}}`,
		reason:  translate.ReasonIndexComparison,
		reasons: []string{"comparing the items of spec.a and spec.b index by index needs two-variable comprehensions, which new CRD rules can use from Kubernetes 1.33; for older targets mut2cel enumerates the indices up to each list's maxItems (at most 256): give them in the schema, as maxItems of the fields in a declarations file, or as run-wide floors"},
	}, {
		name: "two rules over the cost limit", schema: costly, opts: translate.Options{MaxItems: 100000},
		reason: translate.ReasonCost,
		reasons: []string{
			"rule on .spec.a costs",
			"rule on .spec.b costs",
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := translate.Translate(crdWith(t, c.schema), c.opts)
			var terr *translate.Error
			if !errors.As(err, &terr) || len(terr.Problems) != 1 {
				t.Fatalf("Translate(%s) = %v, want one problem", c.name, err)
			}
			p := terr.Problems[0]
			if p.Reason != c.reason {
				t.Errorf("Translate(%s) = reason %q, want %q", c.name, p.Reason, c.reason)
			}
			checkReasons(t, c.name, problemReasons(p), c.reasons)
		})
	}
}

// problemReasons are the reasons of a refusal: its Reasons, or its
// Detail when it has one reason only.
func problemReasons(p translate.Problem) []string {
	if len(p.Reasons) == 0 {
		return []string{p.Detail}
	}
	return p.Reasons
}

// checkReasons reports a wanted text found in no reason or in several,
// and a reason no wanted text is in.
func checkReasons(t *testing.T, name string, got, want []string) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range want {
		n := 0
		for i, r := range got {
			if strings.Contains(r, w) {
				n++
				used[i] = true
			}
		}
		if n != 1 {
			t.Errorf("%s: %d reasons say %q, want 1; reasons:\n%s", name, n, w, strings.Join(got, "\n"))
		}
	}
	for i, r := range got {
		if !used[i] {
			t.Errorf("%s: unexpected reason %q", name, r)
		}
	}
}
