package translate_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// TestBounds covers the bounds Translate adds so that generated rules fit
// the CEL cost limits (docs/cost.md), with the options that steer them.
func TestBounds(t *testing.T) {
	const (
		tagsAddOnly = `
type: object
properties:
  spec:
    type: object
    properties:
      tags:
        type: array
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string}
`
		labelsAddOnly = `
type: object
properties:
  spec:
    type: object
    properties:
      labels:
        type: object
        x-kubernetes-key-mutability: AddOnly
        additionalProperties: {type: string}
`
		boundedEnough = `
type: object
properties:
  spec:
    type: object
    properties:
      tags:
        type: array
        maxItems: 20
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string, maxLength: 63}
`
		tooLarge = `
type: object
properties:
  spec:
    type: object
    properties:
      tags:
        type: array
        maxItems: 100000
        x-kubernetes-list-type: set
        x-kubernetes-key-mutability: AddOnly
        items: {type: string, maxLength: 63}
`
	)
	tags := "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags]"
	reach := func(perCall, perObject int, sizes string) string {
		return fmt.Sprintf("[version v1: on the largest objects the schema allows, the generated rules would cost more than the runtime limits (worst case %d per call, %d per object)\n"+
			"  they stay within them while %s; beyond, the apiserver may cancel them and reject the update (docs/cost.md)]", perCall, perObject, sizes)
	}
	unfit := func(cost int, from, fix string) string {
		return "error: " + tags + ".x-kubernetes-key-mutability: Forbidden: the generated rules do not fit the apiserver's CEL cost limits" + from + "\n" +
			"  declaration: x-kubernetes-key-mutability: AddOnly on .spec.tags\n" +
			fmt.Sprintf("  rule on .spec.tags costs %d, over the per-expression limit 10000000\n", cost) +
			"  most of its cost comes from .spec.tags (maxItems " + fmt.Sprint(map[int]int{25025002: 5000, 10000500002: 100000}[cost]) + ")\n" +
			"  to fix: declare a smaller part of the schema, or give these nodes smaller bounds: in the schema, as maxItems, maxLength or maxProperties of the field in a declarations file, or as a run-wide floor" + fix
	}
	const (
		atFloors = ", even with the bounds mut2cel may add at their floors"
		fixFloor = " [hint NodeFloors]" // the command words how to give a floor
	)
	tests := []struct {
		name     string
		schema   string
		opts     translate.Options
		want     string // the bounds added, or the error
		warnings string
	}{
		// 2000 is the largest round value under the static limits; the
		// runtime limits are reported, not bounded for.
		{"set of unbounded strings", tagsAddOnly, translate.Options{}, "[" + tags + ": maxItems: 2000]", reach(4010002, 4010014, "lists and maps hold at most 500 entries")},
		{"map of unbounded strings", labelsAddOnly, translate.Options{}, "[]", reach(2359292, 2359304, "lists and maps hold at most 100000 entries")},
		{"explicit value", tagsAddOnly, translate.Options{MaxItems: 64}, "[" + tags + ": maxItems: 64]", "[]"},
		{"floor for every list", tagsAddOnly, translate.Options{BoundFloors: map[string]int64{"maxItems": 5000}}, unfit(25025002, atFloors, fixFloor), ""},
		{"floor for one node", tagsAddOnly, translate.Options{NodeFloors: map[string]map[string]int64{".spec.tags": {"maxItems": 5000}}}, unfit(25025002, atFloors, fixFloor), ""},
		{"floor from a declarations file", tagsAddOnly, translate.Options{Declarations: []decl.Set{boundSet(".spec.tags", "maxItems", 5000)}}, unfit(25025002, atFloors, fixFloor), ""},
		{"floor for another node", tagsAddOnly, translate.Options{NodeFloors: map[string]map[string]int64{".spec.other": {"maxItems": 5000}}},
			"[" + tags + ": maxItems: 2000]", reach(4010002, 4010014, "lists and maps hold at most 500 entries")},
		{"explicit value too large", tagsAddOnly, translate.Options{MaxItems: 100000},
			unfit(10000500002, atFloors, " [hint MaxLength]"), ""},
		{"no bounds", tagsAddOnly, translate.Options{NoBounds: true},
			"error: " + tags + ": Required value: the generated rules need maxItems: 2000 (or smaller) here to pass the CEL cost limits; add it [hint NoBounds]", ""},
		{"existing bounds suffice", boundedEnough, translate.Options{}, "[]", "[]"},
		{"existing bound too large", tooLarge, translate.Options{}, unfit(10000500002, "", fixFloor), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := translate.Translate(crdWith(t, tt.schema), tt.opts)
			var got string
			if err != nil {
				got = "error: " + err.Error() + hints(err)
			} else {
				got = fmt.Sprint(res.Bounds)
				errs, err := kube.ValidateCRD(typedCRD(t, res.Translated))
				if err != nil || len(errs) > 0 {
					t.Errorf("translated CRD fails validation: %v %v", err, errs)
				}
			}
			if got != tt.want {
				t.Errorf("Translate(%s) = %s\nwant %s", tt.name, got, tt.want)
			}
			if err == nil {
				if warnings := fmt.Sprint(res.Warnings); warnings != tt.warnings {
					t.Errorf("Translate(%s) warns %s\nwant %s", tt.name, warnings, tt.warnings)
				}
			}
			if err == nil && strings.Contains(tt.want, "max") && !strings.Contains(fmt.Sprint(res.Edits), "max") {
				t.Errorf("the bounds are not among the edits: %v", res.Edits)
			}
		})
	}
}

// hints lists the hints of the problems of err, which the command words
// as its flags, as " [hint H]" each.
func hints(err error) string {
	var terr *translate.Error
	if !errors.As(err, &terr) {
		return ""
	}
	var b strings.Builder
	for _, p := range terr.Problems {
		if p.Hint != "" {
			fmt.Fprintf(&b, " [hint %s]", p.Hint)
		}
	}
	return b.String()
}
