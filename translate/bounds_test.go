package translate_test

import (
	"fmt"
	"strings"
	"testing"

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
	labels := "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[labels]"
	tests := []struct {
		name   string
		schema string
		opts   translate.Options
		want   string // the bounds added, or the error
	}{
		{"set of unbounded strings", tagsAddOnly, translate.Options{}, "[" + tags + ": maxItems: 500]"},
		{"map of unbounded strings", labelsAddOnly, translate.Options{}, "[" + labels + ": maxProperties: 100000]"},
		{"explicit value", tagsAddOnly, translate.Options{MaxItems: 64}, "[" + tags + ": maxItems: 64]"},
		{"explicit value too large", tagsAddOnly, translate.Options{MaxItems: 100000},
			"error: spec.versions[0].schema.openAPIV3Schema: Forbidden: the rules do not fit the cost limits (even with the added bounds " +
				"[openAPIV3Schema.properties[spec].properties[tags]: maxItems 100000 openAPIV3Schema.properties[spec].properties[tags].items: maxLength 1]): " +
				"openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: per-call cost 10000500002 > 1000000; " +
				"openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: per-expression cost 10000500002 > 10000000; " +
				"openAPIV3Schema: per-version cost 10000500014 > 100000000; openAPIV3Schema: per-object cost 10000500014 > 10000000; " +
				"the explicit --max-length, --max-items or --max-properties values may be too large"},
		{"no bounds", tagsAddOnly, translate.Options{NoBounds: true},
			"error: " + tags + ": Required value: the generated rules need maxItems: 500 (or smaller) here to fit the CEL cost limits; add it, or let mut2cel add it by omitting --no-bounds"},
		{"existing bounds suffice", boundedEnough, translate.Options{}, "[]"},
		{"existing bound too large", tooLarge, translate.Options{},
			"error: spec.versions[0].schema.openAPIV3Schema: Forbidden: the rules do not fit the cost limits (no string, list or map around the rules lacks a bound, and existing bounds are never lowered): " +
				"openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: per-call cost 10000500002 > 1000000; " +
				"openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: per-expression cost 10000500002 > 10000000; " +
				"openAPIV3Schema: per-version cost 10000500014 > 100000000; openAPIV3Schema: per-object cost 10000500014 > 10000000; " +
				"lower the existing bounds on these fields, or declare less"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := translate.Translate(crdWith(t, tt.schema), tt.opts)
			var got string
			if err != nil {
				got = "error: " + err.Error()
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
			if err == nil && strings.Contains(tt.want, "max") && !strings.Contains(fmt.Sprint(res.Edits), "max") {
				t.Errorf("the bounds are not among the edits: %v", res.Edits)
			}
		})
	}
}
