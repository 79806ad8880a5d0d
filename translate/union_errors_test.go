package translate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/translate"
)

// TestUnionErrors: a union the schema contradicts is refused where it was
// written, with every reason at once.
func TestUnionErrors(t *testing.T) {
	const root = "spec.versions[0].schema.openAPIV3Schema"
	const props = `properties: {type: {type: string}, a: {type: string}, b: {type: integer}, t: {type: integer}, d: {type: string, format: date}}`
	cases := []struct{ name, schema, want string }{{
		name:   "not a property",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: [{discriminator: kind, fields-to-discriminateBy: {a: A, c: C}}], ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: union 1: member c is not a property of this object; union 1: the discriminator kind is not a property of this object`,
	}, {
		name:   "discriminator not a string",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: [{discriminator: t, fields-to-discriminateBy: {a: A, b: B}}], ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: union 1: the discriminator t must be of type string`,
	}, {
		name:   "discriminator read as a timestamp",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: [{discriminator: d, fields-to-discriminateBy: {a: A, b: B}}], ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: union 1: the discriminator d has format date, which the apiserver's CEL reads as a timestamp, not as the string a member's value is compared with; remove the format`,
	}, {
		name:   "a member in two unions",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: [{fields-to-discriminateBy: {a: , b: }}, {fields-to-discriminateBy: {b: , t: }}], ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: union 2: b is a member of union 1 too: a property may be a member of one union only`,
	}, {
		name:   "a value twice",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: [{discriminator: type, fields-to-discriminateBy: {a: X, b: X}}], ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: union 1: members a and b have the same discriminator value "X": each value may select one member only`,
	}, {
		name:   "not an object",
		schema: `{type: object, properties: {spec: {type: string, x-kubernetes-unions: [{fields-to-discriminateBy: {a: , b: }}]}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Forbidden: only allowed on type: object with properties: the members and the discriminator of a union are properties of the node that declares it`,
	}, {
		name:   "not a list",
		schema: `{type: object, properties: {spec: {type: object, x-kubernetes-unions: {a: b}, ` + props + `}}}`,
		want:   root + `.properties[spec].x-kubernetes-unions: Invalid value: must be a list of unions, as in [{discriminator: type, fields-to-discriminateBy: {a: A, b: B}}]`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := translateProblems(t, c.schema, translate.Options{}); got != c.want {
				t.Errorf("Translate problems =\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestUnionErrorsInFile: a union in a declarations file is refused at its
// line.
func TestUnionErrorsInFile(t *testing.T) {
	sets, err := decl.ParseFile("d.yaml", []byte(`apiVersion: mut2cel.io/v1alpha1
kind: Declarations
crd: widgets.example.com
fields:
  .spec:
    x-kubernetes-unions:
    - discriminator: type
      fields-to-discriminateBy: {a: A, c: C}
`))
	if err != nil {
		t.Fatal(err)
	}
	schema := `{type: object, properties: {spec: {type: object, properties: {type: {type: string}, a: {type: string}}}}}`
	want := `d.yaml:5: version v1, .spec: x-kubernetes-unions: Invalid value: union 1: member c is not a property of this object`
	if got := translateProblems(t, schema, translate.Options{Declarations: sets}); got != want {
		t.Errorf("Translate problems =\n%s\nwant\n%s", got, want)
	}
}

func translateProblems(t *testing.T, schema string, opts translate.Options) string {
	t.Helper()
	_, err := translate.Translate(crdWith(t, schema), opts)
	var terr *translate.Error
	if !errors.As(err, &terr) {
		t.Fatalf("Translate = %v, want *translate.Error", err)
	}
	var got []string
	for _, p := range terr.Problems {
		got = append(got, p.String())
	}
	return strings.Join(got, "\n")
}
