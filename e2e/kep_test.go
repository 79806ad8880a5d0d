package e2e

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
)

// verdictTable holds the examples of the KEP "Immutable Fields" and the
// patterns of the blog post on CEL immutability, with the verdicts of
// docs/semantics.md; translate's tests check the same table locally.
const verdictTable = "../testdata/kep/examples.yaml"

// kepMethods replaces the three methods for the examples named.
var kepMethods = map[string][]method{
	// Server-side apply cannot type a set whose items are maps
	// ("associative list without keys has an element that's a map type"),
	// so no client can apply such an object, with or without rules.
	"example4b-set-of-atomic-maps": {update, mergePatch},
}

// testKEP installs every example of the verdict table under every value it
// takes, at every target version, and drives each update with each method.
func testKEP(t *testing.T, c *cluster) {
	d := &driver{c: c, stats: newStats()}
	t.Cleanup(func() { t.Logf("judged writes:\n%s", d.stats) })
	table := testcrd.ReadVerdicts(t, verdictTable)
	type instance struct {
		k      *kind
		ex     testcrd.Example
		letter byte
	}
	var all []instance
	for i, ex := range append(table.KEP, table.Blog...) {
		for j := range ex.Values {
			letter := ex.Values[j]
			value := testcrd.ValueNames[letter]
			doc := kepCRD(t, i, value, ex.Schema(value))
			for _, v := range targetVersions {
				all = append(all, instance{install(t, c, ex.Name+"/"+value, doc, v), ex, letter})
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
			ms := methods
			if only, ok := kepMethods[in.ex.Name]; ok {
				ms = only
				t.Logf("%s: methods %v only", in.k.name, ms)
			}
			for i, tr := range in.ex.Transitions {
				want := !tr.Allows(in.letter)
				for _, m := range ms {
					causes := d.transition(t, in.k, m, fmt.Sprintf("t%d-%s", i, m), object(t, tr.Old), object(t, tr.New))
					if got := len(causes) > 0; got != want {
						t.Errorf("%s: update %s -> %s with %s: rejected=%v, want %v (%q)", in.k.name, tr.Old, tr.New, m, got, want, causes)
					}
				}
			}
		})
	}
}

// kepCRD wraps an example schema in a namespaced CRD of its own kind.
func kepCRD(t *testing.T, index int, value, schemaYAML string) map[string]interface{} {
	t.Helper()
	kind := fmt.Sprintf("Kep%d%s", index, value)
	plural := strings.ToLower(kind) + "s"
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": plural + ".kep.example.com"},
		"spec": map[string]interface{}{
			"group": "kep.example.com",
			"names": map[string]interface{}{"plural": plural, "kind": kind},
			"scope": "Namespaced",
			"versions": []interface{}{map[string]interface{}{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": object(t, schemaYAML)},
			}},
		},
	}
}

// object decodes an object or schema written as YAML (flow style mostly).
func object(t *testing.T, text string) map[string]interface{} {
	t.Helper()
	var m map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("decoding %q: %v", text, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m
}
