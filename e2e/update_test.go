package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// updateTable holds the verdicts of the update vocabulary (semantics.md
// 9); translate's tests check every combination locally.
const updateTable = "../testdata/update/constraints.yaml"

// testUpdate installs every example of the update table with each of its
// constraints alone and with all of them, at every target version, and
// drives each update with each method. Every combination would install
// dozens of CRDs for an example; translate's tests cover those with the
// apiserver's own validator.
func testUpdate(t *testing.T, c *cluster) {
	d := &driver{c: c, stats: newStats()}
	t.Cleanup(func() { t.Logf("judged writes:\n%s", d.stats) })
	type instance struct {
		k  *kind
		ex testcrd.UpdateExample
		c  decl.Constraints
	}
	var all []instance
	for i, ex := range testcrd.ReadUpdateTable(t, updateTable) {
		sets := []decl.Constraints{ex.Constraints}
		for _, n := range decl.Names {
			if one := decl.Of(n.C); ex.Constraints&one != 0 && one != ex.Constraints {
				sets = append(sets, one)
			}
		}
		for j, set := range sets {
			doc := updateCRD(t, i, j, ex.Schema(set))
			for _, v := range targetVersions {
				all = append(all, instance{install(t, c, fmt.Sprintf("%s/%s", ex.Name, strings.Join(set.List(), "+")), doc, v), ex, set})
			}
		}
	}
	var kinds []*kind
	for _, in := range all {
		kinds = append(kinds, in.k)
	}
	waitServed(t, c, kinds...)
	for _, in := range all {
		in := in
		t.Run(in.k.name, func(t *testing.T) {
			t.Parallel()
			for i, tr := range in.ex.Transitions {
				want := tr.Denies(in.c)
				for _, m := range methods {
					if m == apply && emptyObjectBelowRoot(object(t, tr.New)) {
						// Server-side apply turns an applied empty object
						// whose fields the applier owned into null, which
						// the schema refuses before any rule runs
						// (kubernetes/kubernetes#117447): no verdict.
						continue
					}
					causes := d.transition(t, in.k, m, fmt.Sprintf("t%d-%s", i, m), object(t, tr.Old), object(t, tr.New))
					if got := len(causes) > 0; got != want {
						t.Errorf("%s: update %s -> %s with %s: rejected=%v, want %v (%q)", in.k.name, tr.Old, tr.New, m, got, want, causes)
					}
				}
			}
		})
	}
}

// updateCRD wraps an example schema in a namespaced CRD of its own kind.
func updateCRD(t *testing.T, example, set int, schemaJSON string) map[string]interface{} {
	t.Helper()
	doc := kepCRD(t, example, fmt.Sprintf("U%d", set), schemaJSON)
	kind := fmt.Sprintf("Update%dS%d", example, set)
	plural := strings.ToLower(kind) + "s"
	doc["metadata"] = map[string]interface{}{"name": plural + ".kep.example.com"}
	doc["spec"].(map[string]interface{})["names"] = map[string]interface{}{"plural": plural, "kind": kind}
	return doc
}

// emptyObjectBelowRoot reports whether v holds an empty object below its
// root.
func emptyObjectBelowRoot(v map[string]interface{}) bool {
	for _, x := range v {
		if m, ok := x.(map[string]interface{}); ok && (len(m) == 0 || emptyObjectBelowRoot(m)) {
			return true
		}
	}
	return false
}
