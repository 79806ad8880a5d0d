package crdrules

import "testing"

// TestEqualSeesProperty checks equalSeesProperty against names the
// apiserver's object == is known to skip or misread.
func TestEqualSeesProperty(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "x-y": true, "a.b": true, "foo__bar": true, "namespace": true, "in": true, "_a_": true,
		"__meta__": false, "__kind__": false, "x__dash__y": false, "__namespace__": false,
		"foo__bar__baz": false, "a__in__b": false, "__underscores__": false, "x__dot__": false,
	} {
		if got := equalSeesProperty(name); got != want {
			t.Errorf("equalSeesProperty(%q) = %v, want %v", name, got, want)
		}
	}
}
