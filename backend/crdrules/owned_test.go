package crdrules

import (
	"reflect"
	"testing"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/edit"
)

// TestNetEditsSettings: a Set that the plan makes (bounds) is no edit
// where the document already has that value, however it was decoded.
func TestNetEditsSettings(t *testing.T) {
	node := []interface{}{"spec", "versions", 0, "schema", "openAPIV3Schema"}
	for _, number := range []interface{}{int64(64), float64(64)} {
		doc := map[string]interface{}{"spec": map[string]interface{}{"versions": []interface{}{
			map[string]interface{}{"schema": map[string]interface{}{"openAPIV3Schema": map[string]interface{}{
				"maxLength": number, "format": "date",
			}}},
		}}}
		core := []edit.Edit{{Path: node, Set: []edit.Setting{
			{Key: "maxLength", Value: int64(64)}, {Key: "maxItems", Value: int64(8)}, {Key: "format", Value: "date"},
		}}}
		want := []edit.Edit{{Path: node, Set: []edit.Setting{{Key: "maxItems", Value: int64(8)}}}}
		c, err := crd.Read(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := netEdits(c, core, &Owned{c: c}); !reflect.DeepEqual(got, want) {
			t.Errorf("netEdits with maxLength %T = %+v, want %+v", number, got, want)
		}
	}
}

// TestRuleDifference: owned rules generated again stay, the others go;
// only new rules are added.
func TestRuleDifference(t *testing.T) {
	a, b, c := edit.Rule{Rule: "a"}, edit.Rule{Rule: "b", Message: "m"}, edit.Rule{Rule: "b", Message: "other"}
	remove, add := ruleDifference([]edit.Rule{a, b}, []edit.Rule{c, a})
	if !reflect.DeepEqual(remove, []edit.Rule{b}) || !reflect.DeepEqual(add, []edit.Rule{c}) {
		t.Errorf("ruleDifference = %v, %v; want [b], [c]", remove, add)
	}
}
