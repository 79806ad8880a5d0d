package translate_test

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/markers"
	"github.com/mut2cel/mut2cel/translate"
)

// TestUnionFrontEnds: one union written in the schema, in the
// mut2cel.io/declarations annotation, in a declarations file and with Go
// markers (validation-gen's; the KEP's and controller-gen's) is one
// declaration, and compiles to the same rules.
func TestUnionFrontEnds(t *testing.T) {
	for _, tc := range []struct {
		union, markers string
		rules          int
	}{
		{`[{discriminator: type, fields-to-discriminateBy: {b: B, a: A}, exactlyOne: true}, {fields-to-discriminateBy: {c: , d: }}]`, "k8s", 5},
		{`[{discriminator: type, fields-to-discriminateBy: {b: B, a: A}}, {fields-to-discriminateBy: {c: , d: }, exactlyOne: true}]`, "kep", 3},
	} {
		unionFrontEnds(t, tc.union, tc.markers, tc.rules)
	}
}

func unionFrontEnds(t *testing.T, union, pkg string, rules int) {
	t.Helper()
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
	marked, err := markers.Load("testdata/unionmarkers", "./"+pkg+"/...")
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		decls []decl.Declaration
		rules []string
	}
	var got []result
	for _, c := range []struct {
		doc  map[string]interface{}
		opts translate.Options
	}{
		{inSchema, translate.Options{}},
		{inAnnotation, translate.Options{}},
		{crdWith(t, schema("")), translate.Options{Declarations: sets}},
		{crdWith(t, schema("")), translate.Options{Declarations: marked.Sets}},
	} {
		res, err := translate.Translate(c.doc, c.opts)
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		v := res.Plan.Versions[0]
		var rules []string
		for _, r := range res.Rules[v.Name].Rules {
			rules = append(rules, r.Host.String()+": "+r.Rule.Rule+" ("+r.Rule.Message+")")
		}
		decls := append([]decl.Declaration(nil), v.Declarations...)
		for i := range decls {
			decls[i].Origin = decl.Origin{}
		}
		got = append(got, result{decls, rules})
	}
	if len(got[0].rules) != rules {
		t.Errorf("the schema's union %s compiles to %d rules, want %d: %v", union, len(got[0].rules), rules, got[0].rules)
	}
	for i, name := range []string{"the annotation", "the declarations file", "the markers of " + pkg} {
		if !reflect.DeepEqual(got[i+1], got[0]) {
			t.Errorf("%s gives %+v, the schema %+v", name, got[i+1], got[0])
		}
	}
}
