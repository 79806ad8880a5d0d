package markers

import (
	"strings"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/mut2cel/mut2cel/decl"
)

// TestParseMarker reads each spelling through controller-tools' registry,
// as the collector does.
func TestParseMarker(t *testing.T) {
	reg := &ctmarkers.Registry{}
	if err := register(reg); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text, below, ext, value string
		err                     string
	}{
		{text: "+immutable", ext: decl.ExtMutability, value: "Immutable"},
		{text: "+immutable=AddOnly", ext: decl.ExtMutability, value: "AddOnly"},
		{text: "+immutable=RemoveOnly", ext: decl.ExtMutability, value: "RemoveOnly"},
		{text: "+immutable-keys", ext: decl.ExtKeyMutability, value: "Immutable"},
		{text: "+immutable-keys=AddOnly", ext: decl.ExtKeyMutability, value: "AddOnly"},
		{text: "+k8s:immutable", ext: decl.ExtUpdate, value: "[NoSet, NoUnset, NoModify]"},
		{text: "+k8s:update=NoSet", ext: decl.ExtUpdate, value: "[NoSet]"},
		{text: "+k8s:update=NoRemoveItem", ext: decl.ExtUpdate, value: "[NoRemoveItem]"},
		{text: "+k8s:update=NoModify # set once", ext: decl.ExtUpdate, value: "[NoModify]"},
		{text: "+k8s:eachVal=+k8s:update=NoModify", below: "[*]", ext: decl.ExtUpdate, value: "[NoModify]"},
		{text: "+k8s:eachVal=+k8s:immutable", below: "[*]", ext: decl.ExtUpdate, value: "[NoModify]"},
		{text: "+k8s:eachVal=+k8s:eachVal=+k8s:immutable", below: "[*][*]", ext: decl.ExtUpdate, value: "[NoModify]"},
		{text: "+k8s:eachVal=+k8s:minimum=1"}, // not about updates: left alone
		{text: "+immutable=Sometimes", err: "+immutable=Sometimes: want +immutable, +immutable=AddOnly or +immutable=RemoveOnly"},
		{text: "+immutable-keys=Never", err: "want +immutable-keys, +immutable-keys=AddOnly or +immutable-keys=RemoveOnly"},
		{text: "+k8s:immutable=true", err: "+k8s:immutable takes no value"},
		{text: "+k8s:update=NoSet,NoModify", err: "one constraint per marker"},
		{text: "+k8s:update=Never", err: `+k8s:update=Never: unknown constraint "Never"`},
		{text: "+k8s:update", err: "+k8s:update=: unknown constraint"},
		{text: "+k8s:eachVal=+k8s:update=NoSet", err: "does not apply to an entry"},
		{text: "+k8s:eachVal=+k8s:update=NoAddItem", err: "does not apply to an entry"},
		{text: "+k8s:eachVal=+immutable", err: "write the KEP marker on the item type"},
		{text: "+k8s:eachVal=NoModify", err: "the value is a marker"},
		{text: "+mut2cel:formats=CompareAsValues", ext: decl.ExtFormats, value: decl.CompareAsValues},
		{text: "+mut2cel:formats=Strings", err: "+mut2cel:formats=Strings: want +mut2cel:formats=CompareAsValues"},
		{text: "+mut2cel:formats", err: "want +mut2cel:formats=CompareAsValues"},
	} {
		for _, target := range []ctmarkers.TargetType{ctmarkers.DescribesField, ctmarkers.DescribesType} {
			def := reg.Lookup(tc.text, target)
			if def == nil {
				t.Fatalf("%s: not registered for target %v", tc.text, target)
			}
			v, err := def.Parse(tc.text)
			if m, ok := v.(mark); ok && err == nil {
				err = m.err // kept on the mark, reported at its line by Load
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Parse(%s) = %v, want an error containing %q", tc.text, err, tc.err)
				}
				continue
			}
			m, ok := v.(mark)
			if err != nil || !ok {
				t.Errorf("Parse(%s) = %#v, %v, want a mark", tc.text, v, err)
				continue
			}
			below := ""
			if len(m.below) > 0 {
				below = m.below.String()
			}
			if below != tc.below || m.ext != tc.ext || m.value != tc.value {
				t.Errorf("Parse(%s) = below %q, %s: %s, want below %q, %s: %s", tc.text, below, m.ext, m.value, tc.below, tc.ext, tc.value)
			}
		}
	}
}
