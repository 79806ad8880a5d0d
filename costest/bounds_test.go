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
	// An object compared with == as a whole: the estimator charges a
	// constant, whatever its strings hold.
	objectInList := "type: array\nitems:\n  type: object\n  properties:\n    name: {type: string}\n    image: {type: string}\n" +
		rule("self.all(x, oldSelf.exists(y, x == y))")
	nestedLists := "type: array\nitems:\n  type: array\n  items:\n    type: array\n    items: {type: integer}\n" +
		rule("oldSelf.all(x, x.all(y, y.all(z, true)))")
	tests := []struct {
		name     string
		schema   string
		explicit map[string]int64
		floor    func([]string, string) int64
		want     string // bounds, or the error
	}{
		{"fits already", propertySchema("type: string\n" + rule("self == oldSelf")), nil, nil, "[]"},
		// The per-call worst case of 2000 x 2000 is over the runtime
		// limit; that is judged by RuntimeReach, not bounded here.
		{"add-only set", propertySchema("type: array\nx-kubernetes-list-type: set\nitems: {type: string}\n" + rule("oldSelf.all(x, x in self)")), nil, nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 2000]"},
		{"items of an unbounded list", propertySchema(listMapItems), nil, nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 2000 openAPIV3Schema.properties[spec].properties[f].items.properties[v]: maxLength 10000]"},
		{"explicit maxItems", propertySchema(listMapItems), map[string]int64{costest.MaxItems: 64}, nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 64 openAPIV3Schema.properties[spec].properties[f].items.properties[v]: maxLength 200000]"},
		{"strings compared inside an object get no bound", propertySchema(objectInList), nil, nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 1000]"},
		{"the same value everywhere", propertySchema(nestedLists), nil, nil,
			"[openAPIV3Schema.properties[spec].properties[f]: maxItems 100 openAPIV3Schema.properties[spec].properties[f].items: maxItems 100 openAPIV3Schema.properties[spec].properties[f].items.items: maxItems 100]"},
		{"a lower floor on one node", propertySchema(nestedLists), nil, func(node []string, kw string) int64 {
			if len(node) == 5 { // spec.f.items
				return 10
			}
			return 0
		}, "[openAPIV3Schema.properties[spec].properties[f]: maxItems 200 openAPIV3Schema.properties[spec].properties[f].items: maxItems 50 openAPIV3Schema.properties[spec].properties[f].items.items: maxItems 200]"},
		{"hand-written rules get no bounds", propertySchema("type: array\nitems: {type: string}\n" + rule("self.all(x, self.all(y, x == y))")), nil, nil, "[]"},
		{"existing bound too large", propertySchema("type: array\nx-kubernetes-list-type: set\nmaxItems: 1000000\nitems: {type: string, maxLength: 1000}\n" + rule("oldSelf.all(x, x in self)")), nil, nil,
			"error: openAPIV3Schema.properties[spec].properties[f].x-kubernetes-validations[0].rule costs 1000005000002, over the per-expression limit 10000000; " +
				"the per-version total 1000005000002 is over its limit 100000000, with the bounds the schema has (existing bounds are never lowered); " +
				"most of the cost comes from openAPIV3Schema.properties[spec].properties[f] (maxItems 1000000)"},
		{"too expensive at the floors", propertySchema("type: array\nitems: {type: array, items: {type: array, items: {type: string}}}\n" +
			rule("self.all(x, x.all(y, y.all(z, oldSelf.all(u, u.all(v, v.all(w, w == z))))))")), nil, nil,
			"error: openAPIV3Schema.properties[spec].properties[f].x-kubernetes-validations[0].rule costs 7358437937474, over the per-expression limit 10000000; " +
				"the per-version total 7358437937474 is over its limit 100000000, even with 4 bounds at their floors; " +
				"most of the cost comes from openAPIV3Schema.properties[spec].properties[f] (maxItems 64), " +
				"openAPIV3Schema.properties[spec].properties[f].items (maxItems 64), openAPIV3Schema.properties[spec].properties[f].items.items (maxItems 64)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bounds, err := costest.Bounds(schemaFrom(t, tt.schema), kube.NewRuleEnvSet(31),
				costest.BoundOptions{Selected: selectOldSelf, Explicit: tt.explicit, Floor: tt.floor})
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

// TestReachWorst checks the figures Reach.Worst gives: the costliest
// per-call cost when some rule crosses the per-call limit; when only the
// per-object budget is crossed (many cheap evaluations), no per-call
// figure, where it once printed "worst case 0 per call".
func TestReachWorst(t *testing.T) {
	// Each inner set's rule is cheap, but it runs for each of 2000
	// entries of the outer list.
	nested := propertySchema("type: array\nmaxItems: 2000\nitems:\n" + indent("type: array\nx-kubernetes-list-type: set\nmaxItems: 100\n"+
		"items: {type: string, maxLength: 64}\n"+rule("self.all(x, self.exists(y, y == x))"), 2))
	tests := []struct {
		name, schema, want string
	}{
		{"one rule over per call", set("maxItems: 5000\n"), "worst case 25025002 per call, 25025002 per object"},
		{"only per object", nested, "worst case 641004000 per object; no rule alone is over the per-call limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := costest.RuntimeReach(schemaFrom(t, tt.schema), kube.NewRuleEnvSet(31), selectAll, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exceeds() {
				t.Fatalf("RuntimeReach(%s) does not exceed a runtime limit: %+v", tt.name, r)
			}
			if got := r.Worst(); got != tt.want {
				t.Errorf("Worst() = %q, want %q", got, tt.want)
			}
		})
	}
}

// set is a property schema of a set of strings with bounds and a
// transition rule.
func set(bounds string) string {
	return propertySchema("type: array\nx-kubernetes-list-type: set\n" + bounds + "items: {type: string, maxLength: 64}\n" + rule("oldSelf.all(x, x in self)"))
}

// selectAll selects every rule.
func selectAll(c costest.Cost) bool { return c.Kind == costest.KindRule }

func TestRuntimeReach(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"within the limits", set("maxItems: 100\n"), "over per call: 0, per object 10502, within: false at 0 entries, 0 characters"},
		{"worst case over, small sets fine", set("maxItems: 5000\n"), "over per call: 1, per object 25025002, within: true at 500 entries, 0 characters"},
		{"unbounded", set(""), "over per call: 1, per object 1099514773502, within: true at 500 entries, 0 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := costest.RuntimeReach(schemaFrom(t, tt.schema), kube.NewRuleEnvSet(31), selectAll, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("over per call: %d, per object %d, within: %v at %d entries, %d characters", len(r.OverPerCall), r.PerObject, r.Within, r.Entries, r.Length)
			if got != tt.want {
				t.Errorf("RuntimeReach(%s) = %s\nwant %s", tt.name, got, tt.want)
			}
		})
	}
}

// TestUnfitNamesEveryRule checks that an UnfitError names every rule over
// the per-expression limit at the floors, costliest first, each with the
// nodes that make its cost, so that one run says everything that needs a
// smaller bound.
func TestUnfitNamesEveryRule(t *testing.T) {
	deep := "type: array\nitems: {type: array, items: {type: array, items: {type: string}}}\n" +
		rule("self.all(x, x.all(y, y.all(z, oldSelf.all(u, u.all(v, v.all(w, w == z))))))")
	shallower := "type: array\nitems: {type: array, items: {type: string}}\n" +
		rule("self.all(x, x.all(y, oldSelf.all(u, u.all(v, v == y))))")
	schema := "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      deep:\n" + indent(deep, 8) +
		"      shallower:\n" + indent(shallower, 8) + "      cheap:\n" + indent("type: string\n"+rule("self == oldSelf"), 8)
	_, err := costest.Bounds(schemaFrom(t, schema), kube.NewRuleEnvSet(31), costest.BoundOptions{Selected: selectOldSelf})
	var unfit *costest.UnfitError
	if !errors.As(err, &unfit) {
		t.Fatalf("Bounds = %v, want an UnfitError", err)
	}
	var got []string
	for _, r := range unfit.Rules {
		got = append(got, fmt.Sprintf("%s %d nodes", costest.NodePath(r.Cost.Node), len(r.Dominant)))
	}
	want := "openAPIV3Schema.properties[spec].properties[deep] 3 nodes, openAPIV3Schema.properties[spec].properties[shallower] 2 nodes"
	if strings.Join(got, ", ") != want {
		t.Errorf("UnfitError.Rules = %s, want %s", strings.Join(got, ", "), want)
	}
	if !strings.HasSuffix(err.Error(), "; and 1 more over the per-expression limit") {
		t.Errorf("UnfitError = %q, want it to count the other rule over the limit", err)
	}
}
