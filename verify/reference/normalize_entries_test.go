package reference_test

import (
	"testing"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// entryCases are the cases of docs/semantics.md 11.7 for unions inside
// entries, on testdata/normalize/entries.yaml, written as the spec of
// the old object ("" on create), the new one and the one the
// normalization leaves.
var entryCases = []struct {
	name          string
	old, new, out string
}{
	// Items of atomic lists are normalized as created.
	{"create, a filter with one member: the discriminator is set", ``,
		`{"rules": [{"filters": [{"redirect": {}}]}]}`, `{"rules": [{"filters": [{"redirect": {}, "type": "Redirect"}]}]}`},
	{"a filter edited in place: its discriminator says which member stays", `{"rules": [{"filters": [{"type": "Redirect", "redirect": {}}]}]}`,
		`{"rules": [{"filters": [{"type": "Redirect", "redirect": {}, "rewrite": "x"}]}]}`, `{"rules": [{"filters": [{"type": "Redirect", "redirect": {}}]}]}`},
	{"a filter whose discriminator changed: the old member goes", `{"rules": [{"filters": [{"type": "Redirect", "redirect": {}}]}]}`,
		`{"rules": [{"filters": [{"type": "URLRewrite", "redirect": {}, "rewrite": "x"}]}]}`, `{"rules": [{"filters": [{"type": "URLRewrite", "rewrite": "x"}]}]}`},
	{"every filter of every rule", ``,
		`{"rules": [{"filters": [{"type": "Redirect", "redirect": {}}, {"mirror": 3}]}, {}, {"filters": [{"rewrite": "y", "mirror": 1}]}]}`,
		`{"rules": [{"filters": [{"type": "Redirect", "redirect": {}}, {"mirror": 3, "type": "Mirror"}]}, {}, {"filters": [{"rewrite": "y", "mirror": 1}]}]}`},
	{"items that are no objects are left to validation", `{"rules": "x"}`,
		`{"rules": [{"filters": ["x", null, 5, {"mirror": 1}]}, "y", {"filters": {"a": 1}}]}`,
		`{"rules": [{"filters": ["x", null, 5, {"mirror": 1, "type": "Mirror"}]}, "y", {"filters": {"a": 1}}]}`},
	// Map values against the old value of their key.
	{"map values: one added member wins, a new entry is as created", `{"byName": {"a": {"percent": 5}}}`,
		`{"byName": {"a": {"percent": 5, "fraction": "x"}, "b": {"percent": 1, "fraction": "y"}}}`,
		`{"byName": {"a": {"fraction": "x"}, "b": {"percent": 1, "fraction": "y"}}}`},
	{"map values: keys JSON pointers escape", `{"byName": {"a/b~c": {"percent": 5}, "d": {"fraction": "x"}}}`,
		`{"byName": {"a/b~c": {"percent": 5, "fraction": "x"}, "d": {"fraction": "x", "percent": 2}}}`,
		`{"byName": {"a/b~c": {"fraction": "x"}, "d": {"percent": 2}}}`},
	{"map values: null and odd values stay", `{"byName": {"a": {"percent": 5}}}`,
		`{"byName": {"a": null, "b": "x", "c": [1]}}`, `{"byName": {"a": null, "b": "x", "c": [1]}}`},
	// List-map items against the old item with their keys.
	{"list map: items paired by key, in any order", `{"listeners": [{"name": "a", "protocol": "HTTP", "http": {}}, {"name": "b", "protocol": "TLS", "tls": "t"}]}`,
		`{"listeners": [{"name": "b", "protocol": "TLS", "tls": "t", "http": {}}, {"name": "a", "protocol": "HTTP", "http": {}}, {"name": "c", "tls": "u"}]}`,
		`{"listeners": [{"name": "b", "protocol": "HTTP", "http": {}}, {"name": "a", "protocol": "HTTP", "http": {}}, {"name": "c", "tls": "u", "protocol": "TLS"}]}`},
	{"list map: a key of another type pairs with nothing", `{"listeners": [{"name": "5", "protocol": "HTTP", "http": {}}]}`,
		`{"listeners": [{"name": 5, "protocol": "HTTP", "http": {}, "tls": "t"}, {"protocol": "TLS", "http": {}}]}`,
		`{"listeners": [{"name": 5, "protocol": "HTTP", "http": {}}, {"protocol": "TLS"}]}`},
	{"list map: an item given twice pairs twice", `{"listeners": [{"name": "a", "protocol": "HTTP", "http": {}}]}`,
		`{"listeners": [{"name": "a", "protocol": "HTTP", "http": {}, "tls": "t"}, {"name": "a", "protocol": "HTTP", "http": {}, "tls": "t"}]}`,
		`{"listeners": [{"name": "a", "protocol": "TLS", "tls": "t"}, {"name": "a", "protocol": "TLS", "tls": "t"}]}`},
	{"list map: an integer key sent as 1.0 is paired by value", `{"ids": [{"id": 1, "x": "a"}, {"id": 2, "y": "b"}]}`,
		`{"ids": [{"id": 1.0, "x": "a", "y": "b"}, {"id": 2.5, "x": "c", "y": "b"}]}`,
		`{"ids": [{"id": 1.0, "y": "b"}, {"id": 2.5, "x": "c", "y": "b"}]}`},
	// Entries inside entries, by two keys.
	{"list map in a list map: the member added wins", `{"listeners": [{"name": "a", "ports": [{"port": 80, "proto": "TCP", "filter": {"type": "Redirect", "redirect": {}}}, {"port": 80, "proto": "UDP", "filter": {"mirror": 1}}]}]}`,
		`{"listeners": [{"name": "a", "ports": [{"port": 80, "proto": "UDP", "filter": {"mirror": 1, "rewrite": "r"}}, {"port": 80, "proto": "TCP", "filter": {"type": "Redirect", "redirect": {}, "rewrite": "x"}}]}]}`,
		`{"listeners": [{"name": "a", "ports": [{"port": 80, "proto": "UDP", "filter": {"rewrite": "r", "type": "URLRewrite"}}, {"port": 80, "proto": "TCP", "filter": {"type": "URLRewrite", "rewrite": "x"}}]}]}`},
	{"list map in a new item: as created", `{"listeners": [{"name": "a", "ports": [{"port": 80, "proto": "TCP", "filter": {"type": "Redirect", "redirect": {}}}]}]}`,
		`{"listeners": [{"name": "b", "ports": [{"port": 80, "proto": "TCP", "filter": {"type": "Redirect", "redirect": {}, "rewrite": "x"}}]}]}`,
		`{"listeners": [{"name": "b", "ports": [{"port": 80, "proto": "TCP", "filter": {"type": "Redirect", "redirect": {}}}]}]}`},
	{"a key absent on both sides pairs as null", `{"listeners": [{"name": "a", "ports": [{"port": 80, "filter": {"mirror": 1}}]}]}`,
		`{"listeners": [{"name": "a", "ports": [{"port": 80, "filter": {"mirror": 1, "rewrite": "r"}}]}]}`,
		`{"listeners": [{"name": "a", "ports": [{"port": 80, "filter": {"rewrite": "r", "type": "URLRewrite"}}]}]}`},
}

// TestNormalizeEntries holds the reference normalizer and the policy,
// run by the apiserver's mutating-policy code, to every case of
// entryCases, each as given and once more on its result (the apiserver
// may reinvoke the policy). Objects are decoded as the apiserver decodes
// a request: integers as int64, other numbers as float64.
func TestNormalizeEntries(t *testing.T) {
	doc := testcrd.ReadFile(t, "testdata/normalize/entries.yaml")
	ns := versionNormalizers(t, doc, planOf(t, doc))
	if len(ns) != 1 || ns[0].policy == nil {
		t.Fatalf("want one version with a policy, got %d (%v)", len(ns), ns[0].refusal)
	}
	n := ns[0]
	for _, tc := range entryCases {
		var old map[string]interface{}
		if tc.old != "" {
			old = n.object(map[string]interface{}{"spec": decodeRequest(t, tc.old)})
		}
		new := n.object(map[string]interface{}{"spec": decodeRequest(t, tc.new)})
		want := jsonText(n.object(map[string]interface{}{"spec": decodeRequest(t, tc.out)}))
		ref, pol, err := n.both(old, new)
		if err != nil || ref != want || pol != want {
			t.Errorf("%s:\nreference %s\npolicy    %s\nwant      %s\nerror %v", tc.name, ref, pol, want, err)
			continue
		}
		again := decodeRequest(t, pol).(map[string]interface{})
		if ref2, pol2, err := n.both(old, again); err != nil || ref2 != want || pol2 != want {
			t.Errorf("%s: not idempotent: reference %s, policy %s, error %v", tc.name, ref2, pol2, err)
		}
	}
	t.Logf("highest runtime cost per mutation: %v", n.costs)
}

// decodeRequest reads JSON as the apiserver decodes a request body.
func decodeRequest(t *testing.T, s string) interface{} {
	t.Helper()
	var v interface{}
	if err := utiljson.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}
