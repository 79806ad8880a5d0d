package edit

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	doc := map[string]interface{}{
		"a": map[string]interface{}{"x-kubernetes-mutability": "Immutable", "x-kubernetes-validations": nil},
		"b": []interface{}{map[string]interface{}{"x-kubernetes-validations": []interface{}{"old",
			map[string]interface{}{"rule": "gone"}}}},
		"m": map[string]interface{}{},
	}
	before := Copy(doc)
	got, err := Apply(doc, []Edit{
		{Path: []interface{}{"a"}, Remove: []string{"x-kubernetes-mutability"}, AddRules: []Rule{{Rule: "r", FieldPath: ".f"}}},
		{Path: []interface{}{"b", 0}, RemoveRules: []Rule{{Rule: "gone"}}, AddRules: []Rule{{Rule: "s", Message: "m", Reason: "FieldValueInvalid"}}},
		{Path: []interface{}{"m", "annotations"}, Create: true, Set: []Setting{{"k", "v"}, {"n", int64(3)}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]interface{}{
		"a": map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "r", "fieldPath": ".f"}}},
		"b": []interface{}{map[string]interface{}{"x-kubernetes-validations": []interface{}{"old",
			map[string]interface{}{"rule": "s", "message": "m", "reason": "FieldValueInvalid"}}}},
		"m": map[string]interface{}{"annotations": map[string]interface{}{"k": "v", "n": int64(3)}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Apply() = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(doc, before) {
		t.Errorf("Apply modified its input")
	}
}

// An emptied list goes with its key; a list that gets rules back stays.
func TestApplyRemoveLastRule(t *testing.T) {
	doc := map[string]interface{}{"x-kubernetes-validations": []interface{}{map[string]interface{}{"rule": "a"}}}
	got, err := Apply(doc, []Edit{{RemoveRules: []Rule{{Rule: "a"}}}})
	if err != nil || len(got) != 0 {
		t.Errorf("Apply() = %v, %v, want an empty mapping", got, err)
	}
	got, err = Apply(doc, []Edit{{RemoveRules: []Rule{{Rule: "a"}}, AddRules: []Rule{{Rule: "b"}}}})
	want := map[string]interface{}{"x-kubernetes-validations": []interface{}{map[string]interface{}{"rule": "b"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Apply() = %v, %v, want %v", got, err, want)
	}
}

// An edit that does not fit the document is an error naming the edit,
// never skipped.
func TestApplyErrors(t *testing.T) {
	doc := map[string]interface{}{
		"spec": map[string]interface{}{"x-kubernetes-validations": "text", "list": []interface{}{}},
	}
	for _, c := range []struct {
		edit Edit
		want string
	}{
		{Edit{Path: []interface{}{"spec", "missing"}}, "edit 2 at spec.missing: spec.missing not found"},
		{Edit{Path: []interface{}{"spec", "list", 0}}, "edit 2 at spec.list[0]: spec.list[0] not found"},
		{Edit{Path: []interface{}{"spec"}, Remove: []string{"x"}}, "edit 2 at spec: cannot remove x: no such key"},
		{Edit{Path: []interface{}{"spec", "list"}}, "edit 2 at spec.list: not a mapping"},
		{Edit{Path: []interface{}{"spec"}, AddRules: []Rule{{Rule: "r"}}}, "edit 2 at spec: x-kubernetes-validations is a string, not a list"},
		{Edit{Path: []interface{}{"spec", "list", 0}, Create: true}, "edit 2 at spec.list[0]: cannot create spec.list[0]: only a mapping key can be created"},
		{Edit{Path: []interface{}{"spec", "a", "b"}, Create: true}, "edit 2 at spec.a.b: spec.a not found"},
		{Edit{Set: []Setting{{"k", 1.5}}}, "edit 2 at the document root: cannot set k to a float64: only int64, string and bool"},
		{Edit{AddRules: []Rule{{Rule: "\xff"}}}, `edit 2 at the document root: the rule of a new rule is not valid UTF-8: "\xff"`},
	} {
		_, err := Apply(doc, []Edit{{Path: []interface{}{"spec"}}, c.edit})
		var bad *Error
		if !errors.As(err, &bad) || bad.Index != 1 || err.Error() != c.want {
			t.Errorf("Apply(%v) = %v, want *Error %q", c.edit, err, c.want)
		}
	}
	doc = map[string]interface{}{"x-kubernetes-validations": []interface{}{map[string]interface{}{"rule": "a", "message": "m"}}}
	_, err := Apply(doc, []Edit{{RemoveRules: []Rule{{Rule: "a"}}}})
	if err == nil || !strings.Contains(err.Error(), `cannot remove rule "a": no such entry`) {
		t.Errorf("removing a rule that differs in its message: %v, want an error", err)
	}
}

func TestRuleOf(t *testing.T) {
	for _, c := range []struct {
		entry interface{}
		want  Rule
		ok    bool
	}{
		{map[string]interface{}{"rule": "r", "message": "m", "reason": "x", "fieldPath": ".f"}, Rule{"r", "m", "x", ".f"}, true},
		{map[string]interface{}{"rule": "r"}, Rule{Rule: "r"}, true},
		{map[string]interface{}{"rule": "r", "message": ""}, Rule{}, false}, // written back without the empty key
		{map[string]interface{}{"rule": "r", "messageExpression": "'m'"}, Rule{}, false},
		{map[string]interface{}{"rule": "r", "optionalOldSelf": true}, Rule{}, false},
		{map[string]interface{}{"message": "m"}, Rule{}, false},
		{"r", Rule{}, false},
	} {
		got, ok := RuleOf(c.entry)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("RuleOf(%v) = %v, %v, want %v, %v", c.entry, got, ok, c.want, c.ok)
		}
		if ok && !reflect.DeepEqual(got.Value(), c.entry) {
			t.Errorf("RuleOf(%v).Value() = %v", c.entry, got.Value())
		}
	}
}

func TestRender(t *testing.T) {
	for _, c := range []struct {
		path []interface{}
		want string
	}{
		{nil, "the document root"},
		{[]interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "a.b", "items"},
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a.b].items"},
		{[]interface{}{"metadata", "annotations", "mut2cel.io/declarations"}, "metadata.annotations.mut2cel.io/declarations"},
	} {
		if got := Render(c.path); got != c.want {
			t.Errorf("Render(%v) = %q, want %q", c.path, got, c.want)
		}
	}
}

func TestPointer(t *testing.T) {
	for _, c := range []struct {
		path []interface{}
		want string
	}{
		{nil, ""},
		{[]interface{}{"spec", "versions", 0, "name"}, "/spec/versions/0/name"},
		{[]interface{}{"metadata", "annotations", "mut2cel.io/declarations", "a~b"}, "/metadata/annotations/mut2cel.io~1declarations/a~0b"},
	} {
		if got := Pointer(c.path); got != c.want {
			t.Errorf("Pointer(%v) = %q, want %q", c.path, got, c.want)
		}
	}
}
