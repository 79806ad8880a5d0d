package costest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// selectOldSelf stands for the translator's choice of rules: it selects
// the transition rules.
func selectOldSelf(c costest.Cost) bool {
	return c.Kind == costest.KindRule && strings.Contains(c.Expression, "oldSelf")
}

func TestBounds(t *testing.T) {
	listMapItems := "type: array\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [k]\n" +
		"items:\n  type: object\n  required: [k]\n  properties:\n    k: {type: string}\n    v: {type: string}\n" +
		"  x-kubernetes-validations:\n  - rule: self.v == oldSelf.v\n"
	tests := []struct {
		name     string
		schema   string
		explicit map[string]int64
		want     string // bounds, or the error
	}{
		{"fits already", propertySchema("type: string\n" + rule("self == oldSelf")), nil, "[]"},
		{"add-only set", propertySchema("type: array\nx-kubernetes-list-type: set\nitems: {type: string}\n" + rule("oldSelf.all(x, x in self)")), nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 500]"},
		{"items of an unbounded list", propertySchema(listMapItems), nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 10000 openAPIV3Schema.properties[spec].properties[f].items.properties[v]: maxLength 2000]"},
		{"explicit maxItems", propertySchema(listMapItems), map[string]int64{costest.MaxItems: 64},
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 64 openAPIV3Schema.properties[spec].properties[f].items.properties[v]: maxLength 200000]"},
		{"hand-written rules get no bounds", propertySchema("type: array\nitems: {type: string}\n" + rule("self.all(x, self.all(y, x == y))")), nil, "[]"},
		{"existing bound too large", propertySchema("type: array\nx-kubernetes-list-type: set\nmaxItems: 1000000\nitems: {type: string, maxLength: 1000}\n" + rule("oldSelf.all(x, x in self)")), nil,
			"error: the rules do not fit the cost limits (no string, list or map around the rules lacks a bound, and existing bounds are never lowered): " +
				"openAPIV3Schema.properties[spec].properties[f].x-kubernetes-validations[0].rule: per-call cost 1000005000002 > 1000000; " +
				"openAPIV3Schema.properties[spec].properties[f].x-kubernetes-validations[0].rule: per-expression cost 1000005000002 > 10000000; " +
				"openAPIV3Schema: per-version cost 1000005000002 > 100000000; openAPIV3Schema: per-object cost 1000005000002 > 10000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bounds, err := costest.Bounds(schemaFrom(t, tt.schema), kube.NewRuleEnvSet(31),
				costest.BoundOptions{Selected: selectOldSelf, Explicit: tt.explicit})
			got := fmt.Sprint(bounds)
			var unfit *costest.UnfitError
			if errors.As(err, &unfit) {
				got = "error: " + err.Error()
			} else if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Bounds(%s) = %s\nwant %s", tt.name, got, tt.want)
			}
		})
	}
}
