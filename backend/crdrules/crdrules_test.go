package crdrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

func testCRD() *crd.CRD {
	schema := map[string]interface{}{"type": "object", "properties": map[string]interface{}{
		"spec": map[string]interface{}{"type": "object", "properties": map[string]interface{}{
			"b":    map[string]interface{}{"type": "string", "x-kubernetes-mutability": "Immutable"},
			"a":    map[string]interface{}{"type": "string"},
			"tags": map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "string"}},
		}},
	}}
	c, _ := crd.Read(map[string]interface{}{"spec": map[string]interface{}{"versions": []interface{}{
		map[string]interface{}{"name": "v1", "schema": map[string]interface{}{"openAPIV3Schema": schema}},
	}}})
	return c
}

func path(s string) decl.Path {
	p, err := decl.ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

// TestEdits writes a plan whose lists are in plan order: one edit per
// node in schema walk order, declarations removed only where they were
// written in the schema, bounds on the edit of their node or after the
// others.
func TestEdits(t *testing.T) {
	inSchema := decl.Declaration{Version: "v1", Path: path(".spec.b"), Ext: "x-kubernetes-mutability", Value: "Immutable"}
	inAnnotation := decl.Declaration{Version: "v1", Path: path(".spec.a"), Ext: "x-kubernetes-mutability", Value: "Immutable",
		Origin: decl.Origin{Kind: decl.InAnnotation}}
	rule := func(r string) edit.Rule { return edit.Rule{Rule: r, Reason: "FieldValueForbidden"} }
	p := &plan.Plan{Versions: []plan.Version{{
		Name:         "v1",
		Declarations: []decl.Declaration{inAnnotation, inSchema},
	}}}
	rules := map[string]*VersionRules{"v1": {Rules: []Rule{
		{Host: path(".spec"), Rule: rule("has(self.a) == has(oldSelf.a)"), Origin: []decl.Declaration{inAnnotation}},
		{Host: path(".spec.a"), Rule: rule("self == oldSelf"), Origin: []decl.Declaration{inAnnotation}},
		{Host: path(".spec.b"), Rule: rule("self == oldSelf"), Origin: []decl.Declaration{inSchema}},
	}, Bounds: []plan.Bound{{Node: path(".spec.tags"), Keyword: "maxItems", Value: 64}, {Node: path(".spec.a"), Keyword: "maxLength", Value: 253}}}}
	edits, err := Edits(testCRD(), p, rules)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edits {
		got = append(got, fmt.Sprintf("%s remove%v set%v add%d", edit.Render(e.Path), e.Remove, e.Set, len(e.AddRules)))
	}
	root := "spec.versions[0].schema.openAPIV3Schema.properties[spec]"
	want := []string{
		root + " remove[] set[] add1",
		root + ".properties[a] remove[] set[{maxLength 253}] add1",
		root + ".properties[b] remove[x-kubernetes-mutability] set[] add1",
		root + ".properties[tags] remove[] set[{maxItems 64}] add0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Edits =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEditsRefuseMisfits: a plan naming a node or a version the CRD lacks
// was compiled from another document.
func TestEditsRefuseMisfits(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plan  plan.Version
		rules []Rule
		want  string
	}{
		{"node", plan.Version{Name: "v1"}, []Rule{{Host: path(".spec.c"), Rule: edit.Rule{Rule: "true"}}}, "version v1 has no schema node .spec.c, which the plan names"},
		{"version", plan.Version{Name: "v2"}, nil, "the plan has version v2, the CRD does not"},
	} {
		_, err := Edits(testCRD(), &plan.Plan{Versions: []plan.Version{tt.plan}}, map[string]*VersionRules{tt.plan.Name: {Rules: tt.rules}})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Edits(%s) = %v, want %q", tt.name, err, tt.want)
		}
	}
}
