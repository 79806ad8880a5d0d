package reference_test

import (
	"encoding/json"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// kepCases are the cases of KEP-1027's "Normalizing on updates"
// (docs/semantics.md 11.7) on testdata/normalize/kep.yaml, written as the
// spec of the old object ("" on create), the new one and the one the
// normalization leaves.
var kepCases = []struct {
	name          string
	old, new, out string
}{
	// Create: the old union node is an empty object.
	{"create, one member: the discriminator is set", ``, `{"a": {}}`, `{"a": {}, "type": "A"}`},
	{"create, one member already selected", ``, `{"a": {}, "type": "A"}`, `{"a": {}, "type": "A"}`},
	{"create, a discriminator and two members: the unselected one goes", ``, `{"type": "B", "a": {}, "b": "x"}`, `{"type": "B", "b": "x"}`},
	{"create, two members and no discriminator: left to validation", ``, `{"a": {}, "b": "x"}`, `{"a": {}, "b": "x"}`},
	{"create, nothing set", ``, `{}`, `{}`},
	// The discriminator changed.
	{"discriminator changed: the old member goes", `{"type": "A", "a": {}}`, `{"type": "B", "a": {}, "b": "x"}`, `{"type": "B", "b": "x"}`},
	{"discriminator changed, new member not given: the old one goes all the same", `{"type": "A", "a": {}}`, `{"type": "B", "a": {}}`, `{"type": "B"}`},
	{"discriminator changed to a value of no member (the KEP's Nothing): every member goes", `{"type": "A", "a": {}}`, `{"type": "Nothing", "a": {}, "c": 1}`, `{"type": "Nothing"}`},
	{"discriminator removed: every member goes", `{"type": "A", "a": {}}`, `{"a": {}, "b": "x"}`, `{}`},
	{"discriminator set where it was unset: the others go", `{"a": {}, "b": "x"}`, `{"type": "B", "a": {}, "b": "x"}`, `{"type": "B", "b": "x"}`},
	// The discriminator is unchanged.
	{"one member added: it is selected, the others go", `{"type": "A", "a": {}}`, `{"type": "A", "a": {}, "c": 3}`, `{"type": "C", "c": 3}`},
	{"member replaced by another: the discriminator follows", `{"type": "A", "a": {}}`, `{"type": "A", "b": "x"}`, `{"type": "B", "b": "x"}`},
	{"several members added: left to validation", `{"type": "A", "a": {}}`, `{"type": "A", "a": {}, "b": "x", "c": 3}`, `{"type": "A", "a": {}, "b": "x", "c": 3}`},
	{"two members, none added: left to validation", `{"type": "A", "a": {}, "b": "x"}`, `{"type": "A", "a": {"k": 1}, "b": "y"}`, `{"type": "A", "a": {"k": 1}, "b": "y"}`},
	{"nothing set, nothing changed", `{"type": "A"}`, `{"type": "A"}`, `{"type": "A"}`},
	{"one member unchanged", `{"type": "A", "a": {}}`, `{"type": "A", "a": {"k": 2}}`, `{"type": "A", "a": {"k": 2}}`},
	// Null is unset (semantics.md 11.2).
	{"a null member is not set, and stays", `{"type": "A", "a": {}}`, `{"type": "A", "a": {}, "b": null}`, `{"type": "A", "a": {}, "b": null}`},
	{"a member replaced by null and another added", `{"type": "A", "a": {}}`, `{"type": "A", "a": null, "b": "x"}`, `{"type": "B", "a": null, "b": "x"}`},
	{"a null discriminator is unset, as before: it is set", `{"a": {}}`, `{"type": null, "a": {}}`, `{"type": "A", "a": {}}`},
	{"a null discriminator where one was set: changed", `{"type": "A", "a": {}}`, `{"type": null, "a": {}}`, `{"type": null}`},
	// An absent or null discriminator reads as "" (semantics.md 11.3).
	{"a discriminator from absent to \"\" is unchanged: the one member sets it", `{"a": {}}`, `{"type": "", "a": {}}`, `{"type": "A", "a": {}}`},
	{"a discriminator from \"\" to null is unchanged", `{"type": "", "a": {}, "b": "x"}`, `{"type": null, "a": {}, "b": "x"}`, `{"type": null, "a": {}, "b": "x"}`},
	{"a discriminator from \"\" to a member's value changed", `{"type": "", "a": {}, "b": "x"}`, `{"type": "B", "a": {}, "b": "x"}`, `{"type": "B", "b": "x"}`},
	// Members whose zero value reads as unset (zeroIsUnset).
	{"zero values are unset: nothing set, nothing to do", ``, `{"zero": {"inline": "", "items": [], "size": 0, "flag": false, "labels": {}}}`, `{"zero": {"inline": "", "items": [], "size": 0, "flag": false, "labels": {}}}`},
	{"the one member set beside zero values: selected, the zeros stay", ``, `{"zero": {"inline": "", "items": ["a"], "size": 0}}`, `{"zero": {"inline": "", "items": ["a"], "size": 0, "kind": "Items"}}`},
	{"a member added beside one set and a zero: the added one wins", `{"zero": {"kind": "Inline", "inline": "x"}}`, `{"zero": {"kind": "Inline", "inline": "x", "size": 0, "flag": true}}`, `{"zero": {"kind": "Flag", "size": 0, "flag": true}}`},
	{"discriminator changed: set members go, zero ones stay", `{"zero": {"kind": "Inline", "inline": "x"}}`, `{"zero": {"kind": "Size", "inline": "x", "size": 0, "labels": {"k": "v"}}}`, `{"zero": {"kind": "Size", "size": 0}}`},
	{"a member that was zero and is set now was added", `{"zero": {"kind": "Items", "items": ["a"], "size": 0}}`, `{"zero": {"kind": "Items", "items": ["a"], "size": 3}}`, `{"zero": {"kind": "Size", "size": 3}}`},
	// The union's node comes and goes.
	{"node added: against an empty old node", `null`, `{"a": {}}`, `{"a": {}, "type": "A"}`},
	{"node null: nothing to normalize", `{"type": "A", "a": {}}`, `null`, `null`},
	{"node absent: nothing to normalize", `{"type": "A", "a": {}, "route": {"kind": "X", "x": "1"}}`, `{"type": "A", "a": {}}`, `{"type": "A", "a": {}}`},
	// At most one: the same rules.
	{"at most one, one member added", `{"route": {"kind": "X", "x": "1"}}`, `{"route": {"kind": "X", "x": "1", "y": "2"}}`, `{"route": {"kind": "Y", "y": "2"}}`},
	{"at most one, discriminator changed", `{"route": {"kind": "X", "x": "1"}}`, `{"route": {"kind": "Y", "x": "1"}}`, `{"route": {"kind": "Y"}}`},
	{"at most one, one member on create", ``, `{"route": {"y": "2"}}`, `{"route": {"kind": "Y", "y": "2"}}`},
	// Without a discriminator.
	{"no discriminator, one added: the others go", `{"mirror": {"percent": 5}}`, `{"mirror": {"percent": 5, "fraction": {}}}`, `{"mirror": {"fraction": {}}}`},
	{"no discriminator, two added: left to validation", `{"mirror": {}}`, `{"mirror": {"percent": 5, "fraction": {}}}`, `{"mirror": {"percent": 5, "fraction": {}}}`},
	{"no discriminator, one set: nothing to do", `{"mirror": {"percent": 5}}`, `{"mirror": {"fraction": {}}}`, `{"mirror": {"fraction": {}}}`},
	{"no discriminator, create with two: left to validation", ``, `{"mirror": {"percent": 5, "fraction": {}}}`, `{"mirror": {"percent": 5, "fraction": {}}}`},
	// Names that JSON pointers and CEL must escape.
	{"odd names, one member", ``, `{"odd/node": {"m/1": "v"}}`, `{"odd/node": {"m/1": "v", "namespace": "it's"}}`},
	{"odd names, discriminator changed", `{"odd/node": {"namespace": "it's", "m/1": "v"}}`, `{"odd/node": {"namespace": "a/b", "m/1": "v", "in": "w"}}`, `{"odd/node": {"namespace": "a/b", "in": "w"}}`},
	// Several unions at once, a node and one below it.
	{"two levels at once", `{"type": "A", "a": {}, "route": {"kind": "X", "x": "1"}}`, `{"type": "A", "a": {}, "c": 1, "route": {"kind": "X", "x": "1", "y": "2"}}`, `{"type": "C", "c": 1, "route": {"kind": "Y", "y": "2"}}`},
}

// oddCases are objects the schema refuses, which admission sees before
// validation does: the policy must leave them to validation rather than
// fail, and agree with the reference on what it changes.
var oddCases = []struct {
	name          string
	old, new, out string
}{
	{"the node is a string", `{"type": "A", "a": {}}`, `"x"`, `"x"`},
	{"the node below is a list", `{"route": {"kind": "X"}}`, `{"route": [1]}`, `{"route": [1]}`},
	{"the old node is a list", `[1]`, `{"a": {}}`, `{"a": {}, "type": "A"}`},
	{"a number discriminator, unchanged", `{"type": 5, "a": {}}`, `{"type": 5, "a": {}, "b": "x"}`, `{"type": "B", "b": "x"}`},
	{"a number discriminator, changed", `{"type": 5, "a": {}}`, `{"type": 6, "a": {}}`, `{"type": 6}`},
	{"an object discriminator, unchanged", `{"type": {"k": 1}, "a": {}}`, `{"type": {"k": 1}, "a": {}}`, `{"type": "A", "a": {}}`},
	{"zero values of other types than the schema's are unset too", `{}`, `{"zero": {"inline": 0, "items": {}, "size": "", "flag": [], "labels": false}}`, `{"zero": {"inline": 0, "items": {}, "size": "", "flag": [], "labels": false}}`},
	{"a member of another type, not zero, is set", `{}`, `{"zero": {"inline": 7, "size": ""}}`, `{"zero": {"inline": 7, "size": "", "kind": "Inline"}}`},
}

// TestNormalizeOddValues runs oddCases on both sides.
func TestNormalizeOddValues(t *testing.T) {
	doc := testcrd.ReadFile(t, "testdata/normalize/kep.yaml")
	n := versionNormalizers(t, doc, planOf(t, doc))[0]
	for _, tc := range oddCases {
		old := n.object(map[string]interface{}{"spec": parseJSON(t, tc.old)})
		new := n.object(map[string]interface{}{"spec": parseJSON(t, tc.new)})
		want := jsonText(n.object(map[string]interface{}{"spec": parseJSON(t, tc.out)}))
		ref, pol, err := n.both(old, new)
		if err != nil || ref != want || pol != want {
			t.Errorf("%s:\nreference %s\npolicy    %s\nwant      %s\nerror %v", tc.name, ref, pol, want, err)
		}
	}
}

// TestNormalizeKEP holds the reference normalizer and the policy, run by
// the apiserver's mutating-policy code, to every case of kepCases, and
// both to being idempotent (the apiserver may reinvoke the policy).
func TestNormalizeKEP(t *testing.T) {
	doc := testcrd.ReadFile(t, "testdata/normalize/kep.yaml")
	ns := versionNormalizers(t, doc, planOf(t, doc))
	if len(ns) != 1 || ns[0].policy == nil {
		t.Fatalf("want one version with a policy, got %d (%v)", len(ns), ns[0].refusal)
	}
	n := ns[0]
	for _, tc := range kepCases {
		var old map[string]interface{}
		if tc.old != "" {
			old = n.object(map[string]interface{}{"spec": parseJSON(t, tc.old)})
		}
		new := n.object(map[string]interface{}{"spec": parseJSON(t, tc.new)})
		want := jsonText(n.object(map[string]interface{}{"spec": parseJSON(t, tc.out)}))
		ref, pol, err := n.both(old, new)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if ref != want || pol != want {
			t.Errorf("%s:\nreference %s\npolicy    %s\nwant      %s", tc.name, ref, pol, want)
			continue
		}
		again := parseJSON(t, pol).(map[string]interface{})
		if ref2, pol2, err := n.both(old, again); err != nil || ref2 != want || pol2 != want {
			t.Errorf("%s: not idempotent: reference %s, policy %s, error %v", tc.name, ref2, pol2, err)
		}
	}
	t.Logf("highest runtime cost per mutation: %v", n.costs)
}

func parseJSON(t *testing.T, s string) interface{} {
	t.Helper()
	var v interface{}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}
