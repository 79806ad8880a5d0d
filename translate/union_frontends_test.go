package translate_test

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/translate"
)

// TestUnionFrontEnds: one union written in the schema, in the
// mut2cel.io/declarations annotation and in a declarations file is one
// declaration, and compiles to the same rules.
func TestUnionFrontEnds(t *testing.T) {
	const union = `[{discriminator: type, fields-to-discriminateBy: {b: B, a: A}, exactlyOne: true}, {fields-to-discriminateBy: {c: , d: }}]`
	const props = `properties: {type: {type: string}, a: {type: string}, b: {type: object}, c: {type: integer}, d: {type: boolean}}`
	schema := func(declared string) string {
		return `{type: object, properties: {spec: {type: object, ` + declared + props + `}}}`
	}
	inSchema := crdWith(t, schema("x-kubernetes-unions: "+union+", "))
	inAnnotation := crdWith(t, schema(""))
	inAnnotation["metadata"].(map[string]interface{})["annotations"] = map[string]interface{}{
		decl.AnnotationDeclarations: "v1:\n  .spec:\n    x-kubernetes-unions: " + union + "\n",
	}
	sets, err := decl.ParseFile("d.yaml", []byte("apiVersion: mut2cel.io/v1alpha1\nkind: Declarations\ncrd: widgets.example.com\nfields:\n  .spec:\n    x-kubernetes-unions: "+union+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		decls []decl.Declaration
		rules []string
	}
	for _, c := range []struct {
		doc  map[string]interface{}
		opts translate.Options
	}{{inSchema, translate.Options{}}, {inAnnotation, translate.Options{}}, {crdWith(t, schema("")), translate.Options{Declarations: sets}}} {
		res, err := translate.Translate(c.doc, c.opts)
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		v := res.Plan.Versions[0]
		var rules []string
		for _, r := range v.Rules {
			rules = append(rules, r.Host.String()+": "+r.Rule.Rule+" ("+r.Rule.Message+")")
		}
		decls := append([]decl.Declaration(nil), v.Declarations...)
		for i := range decls {
			decls[i].Origin = decl.Origin{}
		}
		got = append(got, struct {
			decls []decl.Declaration
			rules []string
		}{decls, rules})
	}
	if len(got[0].rules) != 6 {
		t.Errorf("the schema's union compiles to %d rules, want 6: %v", len(got[0].rules), got[0].rules)
	}
	for i, name := range []string{"the annotation", "the declarations file"} {
		if !reflect.DeepEqual(got[i+1], got[0]) {
			t.Errorf("%s gives %+v, the schema %+v", name, got[i+1], got[0])
		}
	}
}
