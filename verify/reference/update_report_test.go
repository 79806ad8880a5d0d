package reference

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// reportSchema declares every constraint once, and one node with a KEP
// value next to the constraints, so that attribution must tell them apart.
const reportSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, x-kubernetes-mutability: Immutable, x-kubernetes-update: [NoModify]}
      size: {type: integer, x-kubernetes-update: [NoSet, NoUnset]}
      l:
        type: array
        x-kubernetes-key-mutability: AddOnly
        x-kubernetes-update: [NoAddItem]
        items: {type: string}
      m:
        type: object
        x-kubernetes-update: [NoRemoveItem]
        additionalProperties: {type: string}`

// TestUpdateViolationText pins the words of each constraint's violation:
// they start with the constraint, and the KEP wording stays as it was.
func TestUpdateViolationText(t *testing.T) {
	c := mustChecker(t, reportSchema)
	for _, tc := range []struct {
		old, new string
		want     []string
	}{
		{`{spec: {class: a}}`, `{spec: {class: b}}`, []string{
			`spec.class: value: Immutable: value changed from "a" to "b" (declared at ` + nodePath("spec", "class") + `)`,
			`spec.class: value: NoModify: changed from "a" to "b" (declared at ` + nodePath("spec", "class") + `)`,
		}},
		{`{spec: {}}`, `{spec: {size: 1}}`, []string{
			`spec.size: presence: NoSet: added; an absent field may not be set (declared at ` + nodePath("spec", "size") + `)`,
		}},
		{`{spec: {size: 1}}`, `{}`, []string{
			`spec.size: presence: NoUnset: removed; a present field may not be unset (declared at ` + nodePath("spec", "size") + `)`,
		}},
		{`{spec: {l: [a]}}`, `{spec: {l: [a, b, c]}}`, []string{
			`spec.l: keys: NoAddItem: added keys 1, 2 (declared at ` + nodePath("spec", "l") + `)`,
		}},
		{`{spec: {l: [a, b]}}`, `{spec: {l: [a]}}`, []string{
			`spec.l: keys: AddOnly: keys removed: 1 (declared at ` + nodePath("spec", "l") + `)`,
		}},
		{`{spec: {m: {a: x, b: y}}}`, `{spec: {m: {b: y, c: z}}}`, []string{
			`spec.m: keys: NoRemoveItem: removed key "a" (declared at ` + nodePath("spec", "m") + `)`,
		}},
	} {
		var got []string
		for _, v := range check(t, c, tc.old, tc.new) {
			got = append(got, v.String())
		}
		if g, w := strings.Join(got, "\n"), strings.Join(tc.want, "\n"); g != w {
			t.Errorf("Check(%s -> %s) =\n%s\nwant\n%s", tc.old, tc.new, g, w)
		}
	}
}

// Each constraint is a declaration of its own in reports, listed after
// the KEP extensions of its node.
func TestUpdateDeclarations(t *testing.T) {
	var got []string
	for _, d := range mustChecker(t, reportSchema).Declarations() {
		got = append(got, strings.TrimPrefix(d.Path, nodePath("spec"))+" "+d.Extension+" "+d.Value)
	}
	want := []string{
		".class x-kubernetes-mutability Immutable",
		".class x-kubernetes-update NoModify",
		".l x-kubernetes-key-mutability AddOnly",
		".l x-kubernetes-update NoAddItem",
		".m x-kubernetes-update NoRemoveItem",
		".size x-kubernetes-update NoSet",
		".size x-kubernetes-update NoUnset",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("Declarations() =\n%s\nwant\n%s", g, w)
	}
}

// TestUpdateExercised pins which constraints an update exercises: NoModify
// where the position exists before and after, NoSet and NoUnset where the
// scope does and the field is on one side at least, the key constraints
// where the collection's scope does.
func TestUpdateExercised(t *testing.T) {
	c := mustChecker(t, reportSchema)
	for _, tc := range []struct {
		old, new string
		want     string
	}{
		{`{}`, `{}`, ""},
		{`{spec: {class: a}}`, `{spec: {class: b}}`, "class Immutable, class NoModify"},
		{`{spec: {class: a}}`, `{}`, "class Immutable"},
		{`{spec: {size: 1}}`, `{spec: {size: 2}}`, "size NoSet, size NoUnset"},
		{`{}`, `{spec: {size: 2}}`, "size NoSet, size NoUnset"},
		{`{spec: {l: []}}`, `{}`, "l AddOnly, l NoAddItem"},
		{`{spec: {m: {a: x}}}`, `{spec: {m: {a: x}}}`, "m NoRemoveItem"},
	} {
		_, got, _ := c.CheckExercised(testcrd.Decode(t, tc.old), testcrd.Decode(t, tc.new))
		var names []string
		for _, d := range got {
			names = append(names, strings.TrimPrefix(d.Path, ".spec.")+" "+d.Value)
		}
		if s := strings.Join(names, ", "); s != tc.want {
			t.Errorf("CheckExercised(%s -> %s) = %s, want %s", tc.old, tc.new, s, tc.want)
		}
	}
}

// A schema whose only declarations are x-kubernetes-update declares
// something: the CLI verifies it, and the pair generator aims at it.
func TestUpdateIsADeclaration(t *testing.T) {
	schema := `
type: object
properties:
  spec:
    type: object
    properties:
      name: {type: string, x-kubernetes-update: [NoModify]}
      tags:
        type: object
        additionalProperties: {type: string, x-kubernetes-update: [NoModify]}`
	doc := map[string]interface{}{"spec": map[string]interface{}{"versions": []interface{}{
		map[string]interface{}{"name": "v1", "served": true, "schema": map[string]interface{}{"openAPIV3Schema": testcrd.Decode(t, schema)}},
	}}}
	if got := DeclaringVersions(doc); !reflect.DeepEqual(got, []string{"v1"}) {
		t.Errorf("DeclaringVersions = %q for a schema with x-kubernetes-update, want [v1]", got)
	}
	var paths []string
	for _, p := range mustChecker(t, schema).DeclaredPaths() {
		paths = append(paths, p.String())
	}
	want := nodePath("spec", "name") + " " + nodePath("spec", "tags", "additionalProperties")
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("DeclaredPaths() = %s, want %s", got, want)
	}
}
