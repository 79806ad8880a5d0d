package jsonvalue

import (
	"encoding/json"
	"testing"
)

// TestNumbers: numbers are equal by value, whatever their Go type, and a
// large integer is not the float it rounds to (semantics.md 2.3).
func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		a, b interface{}
		want bool
	}{
		{int64(1), float64(1), true},
		{1, int64(1), true},
		{json.Number("2"), float64(2), true},
		{int64(1), 1.5, false},
		{int64(1<<53 + 1), float64(1 << 53), false},
		{0.5, float32(0.5), true},
	} {
		a, okA := NumberOf(tc.a)
		b, okB := NumberOf(tc.b)
		if !okA || !okB || a.Equal(b) != tc.want || (a.String() == b.String()) != tc.want {
			t.Errorf("%#v and %#v: equal %v, strings %s and %s; want equal %v", tc.a, tc.b, a.Equal(b), a, b, tc.want)
		}
	}
	if _, ok := NumberOf("1"); ok {
		t.Error("a string read as a number")
	}
}

// TestCanonical: equal values, in any map order and number type, give
// one text; copies share nothing with their original.
func TestCanonical(t *testing.T) {
	a := map[string]interface{}{"b": []interface{}{int64(1), true, nil}, "a": "x"}
	b := map[string]interface{}{"a": "x", "b": []interface{}{float64(1), true, nil}}
	if Canonical(a) != Canonical(b) {
		t.Errorf("Canonical(%v) = %s, Canonical(%v) = %s", a, Canonical(a), b, Canonical(b))
	}
	if got, want := Canonical(a), `{"a":"x","b":[1,true,null,],}`; got != want {
		t.Errorf("Canonical = %s, want %s", got, want)
	}
	c := CopyMap(a)
	c["b"].([]interface{})[0] = int64(2)
	if Canonical(a) == Canonical(c) {
		t.Error("CopyMap shares a list with its original")
	}
}
