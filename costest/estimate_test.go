package costest_test

import (
	"strconv"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// schemaFrom decodes a YAML openAPIV3Schema.
func schemaFrom(t testing.TB, text string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	s := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.UnmarshalStrict([]byte(text), s); err != nil {
		t.Fatalf("bad test schema: %v\n%s", err, text)
	}
	return s
}

// propertySchema wraps one property schema as spec.f of a root object, with rule on
// the property.
func propertySchema(prop string) string {
	return "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      f:\n" + indent(prop, 8)
}

func rule(text string) string {
	return "x-kubernetes-validations:\n- rule: " + strconv.Quote(text) + "\n"
}

func indent(text string, n int) string {
	pad := ""
	for i := 0; i < n; i++ {
		pad += " "
	}
	out := ""
	line := ""
	for _, r := range text {
		line += string(r)
		if r == '\n' {
			out += pad + line
			line = ""
		}
	}
	if line != "" {
		out += pad + line + "\n"
	}
	return out
}

// TestEstimateRuleShapes pins the estimated cost of the rule shapes mut2cel
// generates and of the hand-written rules they are compared with, as the
// apiserver's cost tests pin theirs: a change in any figure means the
// estimator or the environment changed, and docs/cost.md must follow.
func TestEstimateRuleShapes(t *testing.T) {
	for _, tt := range ruleShapes {
		t.Run(tt.name, func(t *testing.T) {
			r, err := costest.Estimate(schemaFrom(t, tt.schema), kube.NewRuleEnvSet(tt.minor()))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Costs) != 1 {
				t.Fatalf("Estimate gave %d costs, want 1: %+v", len(r.Costs), r.Costs)
			}
			c := r.Costs[0]
			if c.Error != "" {
				t.Fatalf("rule does not compile: %s", c.Error)
			}
			if c.PerCall != tt.perCall || c.Cardinality != tt.cardinality {
				t.Errorf("Estimate(%s) = per call %d, cardinality %d, want %d, %d", tt.name, c.PerCall, c.Cardinality, tt.perCall, tt.cardinality)
			}
		})
	}
}

type ruleShape struct {
	name        string
	schema      string
	perCall     uint64
	cardinality uint64
	kubeMinor   int // target Kubernetes 1.x; 0 means 1.31
	// runtimeExcess is how much more than the estimate the runtime charges
	// on the largest value. cel-go estimates == of two integers or two
	// objects at 0 (their size is unknown to the estimator) but charges 1
	// when it runs; everything else is charged at most the estimate.
	runtimeExcess uint64
}

func (r ruleShape) minor() int {
	if r.kubeMinor == 0 {
		return 31
	}
	return r.kubeMinor
}

// ruleShapes are single-rule schemas with the rule's estimated cost.
var ruleShapes = []ruleShape{
	// Generated value rules (docs/translation.md, valueAt and equal).
	{"string bounded", propertySchema("type: string\nmaxLength: 64\n" + rule("self == oldSelf")), 28, 1, 0, 0},
	{"string unbounded", propertySchema("type: string\n" + rule("self == oldSelf")), 314575, 1, 0, 0},
	{"integer", propertySchema("type: integer\n" + rule("self == oldSelf")), 2, 1, 0, 1},
	{"atomic list unbounded", propertySchema("type: array\nitems: {type: string}\n" + rule("self == oldSelf")), 104860, 1, 0, 0},
	{"atomic list bounded", propertySchema("type: array\nmaxItems: 10\nitems: {type: string}\n" + rule("self == oldSelf")), 3, 1, 0, 0},
	{"object", propertySchema("type: object\nproperties: {a: {type: string}}\n" + rule("self == oldSelf")), 2, 1, 0, 1},
	{"set order", propertySchema("type: array\nmaxItems: 16\nx-kubernetes-list-type: set\nitems: {type: string, maxLength: 64}\n" +
		rule("self.map(e, e) == oldSelf.map(e, e)")), 442, 1, 0, 0},
	{"list map order", propertySchema("type: array\nmaxItems: 16\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [k]\n" +
		"items: {type: object, required: [k], properties: {k: {type: string, maxLength: 64}}}\n" +
		rule("self == oldSelf && self.map(e, e.k) == oldSelf.map(e, e.k)")), 478, 1, 0, 0},
	// Generated key rules.
	{"atomic list append", propertySchema("type: array\nitems: {type: string}\n" +
		rule("size(self) >= size(oldSelf)")), 5, 1, 0, 0},
	{"map keys add-only", propertySchema("type: object\nmaxProperties: 16\nadditionalProperties: {type: string}\n" +
		rule("oldSelf.all(k, k in self)")), 98, 1, 0, 0},
	{"set add-only", propertySchema("type: array\nmaxItems: 16\nx-kubernetes-list-type: set\nitems: {type: string, maxLength: 64}\n" +
		rule("oldSelf.all(x, x in self)")), 338, 1, 0, 0},
	{"list map keys add-only", propertySchema("type: array\nmaxItems: 16\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [k]\n" +
		"items: {type: object, required: [k], properties: {k: {type: string, maxLength: 64}}}\n" +
		rule("oldSelf.all(e, self.exists(f, f.k == e.k))")), 8786, 1, 0, 0},
	// Generated pair rules.
	{"index pairs", propertySchema("type: array\nmaxItems: 16\nitems: {type: string, maxLength: 64}\n" +
		rule("self.all(i, v, i >= size(oldSelf) || v == oldSelf[i])")), 594, 1, 33, 0},
	{"map value pairs", propertySchema("type: object\nmaxProperties: 16\nadditionalProperties: {type: string, maxLength: 64}\n" +
		rule("self.all(k, !(k in oldSelf) || self[k] == oldSelf[k])")), 626, 1, 0, 0},
	// Cardinality: a rule on the items of bounded and unbounded lists.
	{"items of a bounded list", propertySchema("type: array\nmaxItems: 16\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [k]\n" +
		"items:\n  type: object\n  required: [k]\n  properties:\n    k: {type: string, maxLength: 64}\n    v: {type: string, maxLength: 64}\n" +
		"  x-kubernetes-validations:\n  - rule: self.v == oldSelf.v\n"), 30, 16, 0, 0},
	{"items of an unbounded list", propertySchema("type: array\nx-kubernetes-list-type: map\nx-kubernetes-list-map-keys: [k]\n" +
		"items:\n  type: object\n  required: [k]\n  properties:\n    k: {type: string, maxLength: 64}\n    v: {type: string, maxLength: 64}\n" +
		"  x-kubernetes-validations:\n  - rule: self.v == oldSelf.v\n"), 30, 314572, 0, 0},
}
