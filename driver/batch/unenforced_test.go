package batch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

func TestUnenforced(t *testing.T) {
	declared := []decl.Declaration{{}}
	rules := []plan.Rule{{}}
	p := &plan.Plan{Versions: []plan.Version{
		{Name: "v1", Served: true, Declarations: declared},               // needs no rule
		{Name: "v2", Served: true, Declarations: declared, Rules: rules}, // enforced
		{Name: "v3", Served: true},                                       // declares nothing
		{Name: "v4", Declarations: declared},                             // not served
		{Name: "v5", Served: true, Declarations: declared},               // needs no rule
	}}
	if got, want := Unenforced(p), []string{"v1", "v5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Unenforced = %v, want %v", got, want)
	}
	if !Declares(p) {
		t.Error("Declares = false, want true")
	}
	if Unenforced(nil) != nil || Declares(nil) {
		t.Error("a CRD without a plan declares something")
	}
	onlyUnserved := &plan.Plan{Versions: []plan.Version{{Name: "v1", Declarations: declared}}}
	if Declares(onlyUnserved) {
		t.Error("Declares counts an unserved version")
	}
	note := UnenforcedNote(Diagnostic{File: "crd.yaml", Line: 1}, []string{"v1", "v5"}, "no rule")
	if want := "crd.yaml:1: versions v1, v5: the declarations need no rule: "; !strings.HasPrefix(note.String(), want) {
		t.Errorf("UnenforcedNote = %q, want it to start %q", note.String(), want)
	}
}
