package schemapath

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestString pins the one notation of paths, which every report prints.
func TestString(t *testing.T) {
	p := Path{Prop("spec"), Prop("ports"), {Kind: Items}, Prop("a.b"), Prop("labels"), {Kind: Values}}
	if got, want := p.String(), `.spec.ports[*]["a.b"].labels[*]`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	if got := Path(nil).String(); got != "." {
		t.Errorf("the root's String() = %s, want .", got)
	}
}

// TestOnSchemaLine: a node is on the line of itself, of its ancestors and
// of its descendants, and of nothing else; items and values alike.
func TestOnSchemaLine(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{".spec.a", ".spec.a", true},
		{".spec", ".spec.a[*].b", true},
		{".spec.a[*].b", ".spec", true},
		{".spec.a", ".spec.b", false},
		{".spec.ab", ".spec.a", false},
		{".", ".spec", true},
	} {
		if got := OnSchemaLine(tc.a, tc.b); got != tc.want {
			t.Errorf("OnSchemaLine(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRuleTargets pins the order the runner lists rules in: the walk, and
// right after each rule the field its fieldPath names, before the nodes
// the walk meets next.
func TestRuleTargets(t *testing.T) {
	rule := func(fieldPath string) apiextensionsv1.ValidationRules {
		return apiextensionsv1.ValidationRules{{Rule: "true", FieldPath: fieldPath}}
	}
	s := &schema.Structural{
		Generic:              schema.Generic{Type: "object"},
		ValidationExtensions: schema.ValidationExtensions{XValidations: rule(".spec.b")},
		Properties: map[string]schema.Structural{"spec": {
			Generic: schema.Generic{Type: "object"},
			Properties: map[string]schema.Structural{
				"a": {Generic: schema.Generic{Type: "string"}, ValidationExtensions: schema.ValidationExtensions{XValidations: rule("")}},
				"b": {Generic: schema.Generic{Type: "string"}, ValidationExtensions: schema.ValidationExtensions{XValidations: rule("")}},
				"c": {Generic: schema.Generic{Type: "array"}, Items: &schema.Structural{
					Generic: schema.Generic{Type: "string"}, ValidationExtensions: schema.ValidationExtensions{XValidations: rule("['x.y']")}}},
			},
		}},
	}
	var got []string
	for _, p := range RuleTargets(s) {
		got = append(got, p.String())
	}
	if g, want := strings.Join(got, " "), `. .spec.b .spec.a .spec.b .spec.c[*] .spec.c[*]["x.y"]`; g != want {
		t.Errorf("RuleTargets = %s, want %s", g, want)
	}
	if At(s, Path{Prop("spec"), Prop("c"), {Kind: Items}}) != s.Properties["spec"].Properties["c"].Items {
		t.Error("At does not lead to the items of .spec.c")
	}
	if At(s, Path{Prop("spec"), Prop("d")}) != nil {
		t.Error("At leads to a property the schema lacks")
	}
}
