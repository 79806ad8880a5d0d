package shrink

import (
	"testing"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// TestPair shrinks a pair whose only point is that spec.a changed: what
// else it holds goes, the change stays, and the pair given is left as it
// was.
func TestPair(t *testing.T) {
	old := map[string]interface{}{"spec": map[string]interface{}{"a": int64(1), "b": []interface{}{"x", "y"}}, "status": "ok"}
	new := map[string]interface{}{"spec": map[string]interface{}{"a": int64(2), "b": []interface{}{"y"}, "c": true}}
	before := jsonvalue.Canonical(old) + jsonvalue.Canonical(new)
	changed := func(o, n map[string]interface{}) bool {
		a, okA := o["spec"].(map[string]interface{})
		b, okB := n["spec"].(map[string]interface{})
		return okA && okB && a["a"] != nil && b["a"] != nil && jsonvalue.Canonical(a["a"]) != jsonvalue.Canonical(b["a"])
	}
	gotOld, gotNew := Pair(old, new, changed)
	got := jsonvalue.Canonical(gotOld) + " -> " + jsonvalue.Canonical(gotNew)
	if want := `{"spec":{"a":1,},} -> {"spec":{"a":2,},}`; got != want {
		t.Errorf("Pair = %s, want %s", got, want)
	}
	if after := jsonvalue.Canonical(old) + jsonvalue.Canonical(new); after != before {
		t.Errorf("Pair changed the pair it was given: %s, was %s", after, before)
	}
}

// TestPairKeepsWhatNothingSmallerKeeps returns the pair given when no
// candidate keeps the predicate.
func TestPairKeepsWhatNothingSmallerKeeps(t *testing.T) {
	old := map[string]interface{}{"a": "x"}
	new := map[string]interface{}{"a": "y"}
	same := func(o, n map[string]interface{}) bool {
		return jsonvalue.Canonical(o) == `{"a":"x",}` && jsonvalue.Canonical(n) == `{"a":"y",}`
	}
	gotOld, gotNew := Pair(old, new, same)
	if jsonvalue.Canonical(gotOld) != `{"a":"x",}` || jsonvalue.Canonical(gotNew) != `{"a":"y",}` {
		t.Errorf("Pair = %s -> %s, want the pair given", jsonvalue.Canonical(gotOld), jsonvalue.Canonical(gotNew))
	}
}
