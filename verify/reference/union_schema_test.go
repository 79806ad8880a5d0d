package reference

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// TestUnionDeclarationErrors places unions where they may not stand and
// writes them wrong: each schema gives the errors listed, by path and
// words, and nothing else.
func TestUnionDeclarationErrors(t *testing.T) {
	const props = `properties: {type: {type: string}, num: {type: integer}, a: {type: string}, b: {type: object}, c: {type: string}}`
	cases := []struct {
		name, schema string
		want         []string
	}{
		{"on the root", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}]", nil},
		{"not a list", "type: object\n" + props + "\nx-kubernetes-unions: {a: A}",
			[]string{"openAPIV3Schema.x-kubernetes-unions: Invalid value"}},
		{"empty list", "type: object\n" + props + "\nx-kubernetes-unions: []",
			[]string{"openAPIV3Schema.x-kubernetes-unions: Invalid value"}},
		{"entry not an object", "type: object\n" + props + "\nx-kubernetes-unions: [a]",
			[]string{"x-kubernetes-unions[0]: Invalid value"}},
		{"unknown key", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: A}, exactlyone: true}]",
			[]string{`x-kubernetes-unions[0].exactlyone: Unsupported value: "exactlyone"`}},
		{"no members", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: type}]",
			[]string{"x-kubernetes-unions[0].fields-to-discriminateBy: Required value"}},
		{"member not a property", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: A, z: Z}}]",
			[]string{"x-kubernetes-unions[0].fields-to-discriminateBy[z]: Invalid value: \"z\": not a property"}},
		{"discriminator not a property", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: kind, fields-to-discriminateBy: {a: A}}]",
			[]string{"x-kubernetes-unions[0].discriminator: Invalid value: \"kind\": not a property"}},
		{"discriminator not a string", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: num, fields-to-discriminateBy: {a: A}}]",
			[]string{"x-kubernetes-unions[0].discriminator: Invalid value: \"num\": the discriminator must be a property of type string"}},
		{"discriminator a member", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: A, type: T}}]",
			[]string{"fields-to-discriminateBy[type]: Invalid value: \"type\": the discriminator cannot also be a member"}},
		{"value missing", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: A, b: null}}]",
			[]string{"fields-to-discriminateBy[b]: Invalid value: null: with a discriminator"}},
		{"value used twice", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: X, b: X}}]",
			[]string{"fields-to-discriminateBy[b]: Duplicate value: \"X (also the value of a"}},
		{"values ignored without discriminator", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: X, b: X, c: null}}]", nil},
		{"exactlyOne not a boolean", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: A}, exactlyOne: 'yes'}]",
			[]string{"x-kubernetes-unions[0].exactlyOne: Invalid value: \"yes\""}},
		{"shared member", "type: object\n" + props + "\nx-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}, {fields-to-discriminateBy: {b: B, c: C}}]",
			[]string{"x-kubernetes-unions[1].fields-to-discriminateBy[b]: Invalid value: \"b\": already a member of union 0"}},
		{"two unions, one discriminator", "type: object\n" + props + "\nx-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: A}}, {discriminator: type, fields-to-discriminateBy: {b: B, c: C}}]", nil},
		{"on a string", "type: object\nproperties:\n  s: {type: string, x-kubernetes-unions: [{fields-to-discriminateBy: {a: A}}]}",
			[]string{"openAPIV3Schema.properties[s].x-kubernetes-unions: Forbidden: a union stands on an object node"}},
		{"on a map", "type: object\nproperties:\n  m: {type: object, additionalProperties: {type: string}, x-kubernetes-unions: [{fields-to-discriminateBy: {a: A}}]}",
			[]string{"openAPIV3Schema.properties[m].x-kubernetes-unions: Forbidden: a union stands on an object node"}},
		{"in metadata", "type: object\nproperties:\n  metadata: {type: object, properties: {name: {type: string}, a: {type: string}}, x-kubernetes-unions: [{fields-to-discriminateBy: {name: N, a: A}}]}",
			[]string{"openAPIV3Schema.properties[metadata].x-kubernetes-unions: Forbidden"}},
		{"in a junctor", "type: object\n" + props + "\nanyOf: [{type: object, x-kubernetes-unions: [{fields-to-discriminateBy: {a: A}}]}]",
			[]string{"openAPIV3Schema.anyOf[0].x-kubernetes-unions: Forbidden"}},
		{"in list items and map values", "type: object\nproperties:\n  l: {type: array, items: {type: object, " + props + ", x-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}]}}\n  m: {type: object, additionalProperties: {type: object, " + props + ", x-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}]}}", nil},
	}
	for _, tc := range cases {
		_, err := NewChecker(testcrd.Decode(t, tc.schema))
		var got []error
		if agg, ok := err.(interface{ Errors() []error }); ok {
			got = agg.Errors()
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: NewChecker = %v, want %d errors %q", tc.name, err, len(tc.want), tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: NewChecker = %v, want an error containing %q", tc.name, err, w)
			}
		}
	}
}

// TestUnionDeclarations names each union of a node apart, and a
// violation names the union it breaks.
func TestUnionDeclarations(t *testing.T) {
	c := mustChecker(t, `
type: object
properties:
  spec:
    type: object
    x-kubernetes-unions:
    - {discriminator: type, fields-to-discriminateBy: {a: A, b: B}, exactlyOne: true}
    - {fields-to-discriminateBy: {c: C, d: D}}
    properties:
      type: {type: string}
      a: {type: string}
      b: {type: string}
      c: {type: string}
      d: {type: string}`)
	decls := c.Declarations()
	want := []Declaration{
		{".spec", extUnions, "ExactlyOne(a, b; discriminator type)"},
		{".spec", extUnions, "AtMostOne(c, d)"},
	}
	if len(decls) != len(want) || decls[0] != want[0] || decls[1] != want[1] {
		t.Fatalf("declarations() = %v, want %v", decls, want)
	}
	if cs := c.Constraints(); len(cs) != 0 {
		t.Errorf("constraints() = %v, want none: a union constrains values, not updates", cs)
	}
	got := c.CheckCreate(testcrd.Decode(t, `{spec: {type: A, b: x, c: x, d: y}}`))
	wantDetails := []string{
		"spec: union: several members: AtMostOne(c, d): at most one of c, d may be set; c, d are set (declared at .spec)",
		"spec.a: union: selected member unset: ExactlyOne(a, b; discriminator type): a must be set when type is A (declared at .spec)",
		"spec.b: union: member not selected: ExactlyOne(a, b; discriminator type): b may be set only when type is B (declared at .spec)",
	}
	if len(got) != len(wantDetails) {
		t.Fatalf("CheckCreate = %v, want %d violations", got, len(wantDetails))
	}
	for i, v := range got {
		if v.String() != wantDetails[i] {
			t.Errorf("violation %d = %s, want %s", i, v, wantDetails[i])
		}
	}
	if d := DeclarationOf(got[0], decls); d != want[1] {
		t.Errorf("DeclarationOf(%s) = %v, want %v", got[0], d, want[1])
	}
	if d := DeclarationOf(got[1], decls); d != want[0] {
		t.Errorf("DeclarationOf(%s) = %v, want %v", got[1], d, want[0])
	}
}

// TestUnionRootMetadata: the apiserver correlates nothing below a key the
// schema does not describe, so a root whose metadata the schema leaves
// out is never unchanged, and its unions are judged on every update.
func TestUnionRootMetadata(t *testing.T) {
	schema := `
type: object
x-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}]
properties:
  a: {type: string}
  b: {type: string}
  keep: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-unions: [{fields-to-discriminateBy: {a: A, b: B}}], properties: {a: {type: string}, b: {type: string}}}`
	c := mustChecker(t, schema)
	bad := `{a: x, b: y}`
	if got := check(t, c, bad, bad); len(got) != 0 {
		t.Errorf("Check(unchanged, no metadata) = %v, want none", got)
	}
	withMeta := `{metadata: {name: n}, a: x, b: y}`
	if got := check(t, c, withMeta, withMeta); len(got) != 1 || got[0].Path != "" {
		t.Errorf("Check(unchanged, metadata) = %v, want the root's union judged", got)
	}
	unknown := `{keep: {a: x, b: y, extra: 1}}`
	if got := check(t, c, unknown, unknown); len(got) != 1 || got[0].Path != "keep" {
		t.Errorf("Check(unchanged, unknown field) = %v, want keep's union judged", got)
	}
}
