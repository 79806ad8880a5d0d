package markers

import (
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

// TestMarkersDeclareEveryKind: every kind of decl.Kinds has a marker
// that declares it, and every marker declares a kind of the table.
func TestMarkersDeclareEveryKind(t *testing.T) {
	declared := map[string]string{}
	// Markers that take a value are given one; the others default it.
	values := map[string]string{nameFormats: decl.CompareAsValues}
	for _, name := range markerNames {
		m := &mark{}
		if err := m.parse(name, values[name]); err != nil || m.ext == "" {
			continue // +k8s:eachVal takes a marker as its value
		}
		if _, ok := decl.KindNamed(m.ext); !ok {
			t.Errorf("+%s declares %q, not a kind of decl.Kinds", name, m.ext)
		}
		declared[m.ext] = name
	}
	// The union markers are read from the comments (uniontags.go): each
	// of them declares x-kubernetes-unions.
	for _, name := range append(append([]string{}, fieldUnionTags...), typeUnionTags...) {
		declared[decl.ExtUnions] = name
	}
	for _, k := range decl.Kinds {
		if _, ok := declared[k.Name]; !ok {
			t.Errorf("no marker declares %s", k.Name)
		}
	}
}
