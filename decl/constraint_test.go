package decl

import (
	"testing"
)

func TestParseUpdate(t *testing.T) {
	cases := []struct {
		in      interface{}
		want    Constraints
		wantErr string
	}{
		{in: []interface{}{"NoModify"}, want: Of(NoModify)},
		{in: []interface{}{"NoModify", "NoUnset"}, want: Of(NoUnset, NoModify)},
		{in: []string{"NoAddItem", "NoRemoveItem"}, want: KeyConstraints},
		{in: "NoModify", wantErr: `must be a list of constraints, as in [NoUnset, NoModify], not "NoModify"`},
		{in: []interface{}{}, wantErr: "must name at least one constraint of NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem"},
		{in: []interface{}{"nomodify"}, wantErr: `unknown constraint "nomodify": supported: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem`},
		{in: []interface{}{"NoSet", "NoSet"}, wantErr: "constraint NoSet listed twice"},
		{in: []interface{}{1}, wantErr: "unknown constraint 1: supported: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem"},
	}
	for _, c := range cases {
		got, err := ParseUpdate(c.in)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("ParseUpdate(%v) error = %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseUpdate(%v) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if s := Of(NoModify, NoSet).String(); s != "[NoSet, NoModify]" {
		t.Errorf("String = %s", s)
	}
}

// TestKEP pins the table of docs/semantics.md 9.2.
func TestKEP(t *testing.T) {
	cases := []struct {
		ext, value       string
		entry            bool
		self, collection Constraints
	}{
		{ExtMutability, Immutable, false, Of(NoSet, NoUnset, NoModify), 0},
		{ExtMutability, AddOnly, false, Of(NoUnset, NoModify), 0},
		{ExtMutability, RemoveOnly, false, Of(NoSet, NoModify), 0},
		{ExtMutability, Immutable, true, Of(NoModify), 0},
		{ExtMutability, AddOnly, true, Of(NoModify), Of(NoRemoveItem)},
		{ExtMutability, RemoveOnly, true, Of(NoModify), Of(NoAddItem)},
		{ExtKeyMutability, Immutable, false, Of(NoAddItem, NoRemoveItem), 0},
		{ExtKeyMutability, AddOnly, false, Of(NoRemoveItem), 0},
		{ExtKeyMutability, RemoveOnly, false, Of(NoAddItem), 0},
	}
	for _, c := range cases {
		self, coll, ok := KEP(c.ext, c.value, c.entry)
		if !ok || self != c.self || coll != c.collection {
			t.Errorf("KEP(%s, %s, entry=%v) = %v, %v, %v; want %v, %v", c.ext, c.value, c.entry, self, coll, ok, c.self, c.collection)
		}
	}
	if _, _, ok := KEP(ExtMutability, "immutable", false); ok {
		t.Error("KEP accepted a lower-case value")
	}
}

// ParseConstraints reads back every form Constraints.String writes, and
// nothing else.
func TestParseConstraints(t *testing.T) {
	for c := Constraints(1); c < 1<<5; c++ {
		got, err := ParseConstraints(c.String())
		if err != nil || got != c {
			t.Errorf("ParseConstraints(%q) = %v, %v, want %v", c.String(), got, err, c)
		}
	}
	for _, bad := range []string{"NoModify", "[]", "[NoModify", "[Frozen]", "[NoModify, NoModify]"} {
		if c, err := ParseConstraints(bad); err == nil {
			t.Errorf("ParseConstraints(%q) = %v, want an error", bad, c)
		}
	}
}
