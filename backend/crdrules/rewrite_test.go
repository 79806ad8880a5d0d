package crdrules

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// rewrittenCRD is a CRD an earlier run translated: one generated rule,
// recorded at .spec.a but moved by hand to .spec.b, a record entry whose
// rule is gone, and a hand-written rule.
func rewrittenCRD(t *testing.T) *crd.CRD {
	t.Helper()
	generated := edit.Rule{Rule: "self == oldSelf", Message: "is immutable"}.Value()
	schema := map[string]interface{}{"type": "object", "properties": map[string]interface{}{
		"spec": map[string]interface{}{"type": "object", "properties": map[string]interface{}{
			"a": map[string]interface{}{"type": "string"},
			"b": map[string]interface{}{"type": "string", edit.ValidationsKey: []interface{}{
				map[string]interface{}{"rule": "self != 'x'"}, generated,
			}},
		}},
	}}
	fp := decl.Fingerprint(generated)
	c, err := crd.Read(map[string]interface{}{
		"metadata": map[string]interface{}{"name": "widgets.example.com", "annotations": map[string]interface{}{
			decl.AnnotationDeclarations: "v1: {.spec.b: {x-kubernetes-mutability: Immutable}}",
			decl.AnnotationGenerated:    "v1: {.spec.a: [" + fp + ", gone]}",
			"keep":                      "me",
		}},
		"spec": map[string]interface{}{"versions": []interface{}{
			map[string]interface{}{"name": "v1", "schema": map[string]interface{}{"openAPIV3Schema": schema}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFindOwned: a recorded rule that moved is found on its one new
// node; a fingerprint with no entry is lost; the hand-written rule is
// never owned; setting aside removes the owned rule and both annotations.
func TestFindOwned(t *testing.T) {
	c := rewrittenCRD(t)
	o := FindOwned(c)
	if want := []LostRule{{Version: "v1", Path: ".spec.a", Fingerprint: "gone"}}; !reflect.DeepEqual(o.Lost, want) {
		t.Errorf("Lost = %+v, want %+v", o.Lost, want)
	}
	b, _ := c.Node(crd.Location{Version: "v1", Path: decl.Path{{Name: "spec"}, {Name: "b"}}})
	want := []edit.Edit{
		{Path: b, RemoveRules: []edit.Rule{{Rule: "self == oldSelf", Message: "is immutable"}}},
		{Path: crd.AnnotationsPath(), Remove: []string{decl.AnnotationDeclarations, decl.AnnotationGenerated}},
	}
	if got := o.SetAside(); !reflect.DeepEqual(got, want) {
		t.Errorf("SetAside = %+v, want %+v", got, want)
	}
}

// TestWriteKeepsOwnedRules: a plan that generates the owned rule again
// leaves it where it is and writes no annotation whose content is the
// same; the record follows the rule to its node.
func TestWriteKeepsOwnedRules(t *testing.T) {
	c := rewrittenCRD(t)
	b := decl.Path{{Name: "spec"}, {Name: "b"}}
	d := decl.Declaration{CRD: c.Name, Version: "v1", Path: b, Ext: decl.ExtMutability, Value: "Immutable",
		Origin: decl.Origin{Kind: decl.InAnnotation}}
	p := &plan.Plan{Versions: []plan.Version{{Name: "v1", Declarations: []decl.Declaration{d}}}}
	rules := map[string]*VersionRules{"v1": {Rules: []Rule{{Host: b, Rule: edit.Rule{Rule: "self == oldSelf", Message: "is immutable"}, Origin: []decl.Declaration{d}}}}}
	out, err := writeInto(c, p, rules, FindOwned(c))
	if err != nil {
		t.Fatal(err)
	}
	fp := c.Own.Record["v1"][".spec.a"][0]
	if want := (decl.Record{"v1": {".spec.b": {fp}}}); !reflect.DeepEqual(out.record, want) {
		t.Errorf("Record = %v, want %v", out.record, want)
	}
	want := []edit.Edit{{Path: crd.AnnotationsPath(), Create: true,
		Set: []edit.Setting{{Key: decl.AnnotationGenerated, Value: out.record.Render([]string{"v1"})}}}}
	if !reflect.DeepEqual(out.edits, want) {
		t.Errorf("Edits = %+v, want %+v", out.edits, want)
	}
	if len(out.fresh) != 1 || len(out.fresh[0].AddRules) != 1 {
		t.Errorf("Fresh = %+v, want the one generated rule", out.fresh)
	}
}
