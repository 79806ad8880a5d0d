package e2e

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// kepCase is one example of the KEP "Immutable Fields": a schema with a %s
// placeholder for the declaration value, the values it is instantiated with
// (I Immutable, A AddOnly, R RemoveOnly), and updates with the values that
// allow them.
type kepCase struct {
	name        string
	values      string
	schema      string
	transitions []kepTransition
	// methods, when set, replaces the three methods, with the reason in a
	// comment.
	methods []method
}

type kepTransition struct {
	old, new string
	allow    string // the values under which the server accepts the update
}

var valueNames = map[byte]string{'I': "Immutable", 'A': "AddOnly", 'R': "RemoveOnly"}

// testKEP installs every KEP example under every value it takes, at every
// target version, and drives each update with each method.
func testKEP(t *testing.T, c *cluster) {
	d := &driver{c: c, stats: newStats()}
	t.Cleanup(func() { t.Logf("judged writes:\n%s", d.stats) })
	type instance struct {
		k      *kind
		c      kepCase
		letter byte
	}
	var all []instance
	for i, kc := range kepCases {
		for j := range kc.values {
			letter := kc.values[j]
			doc := kepCRD(t, i, valueNames[letter], strings.ReplaceAll(kc.schema, "%s", valueNames[letter]))
			for _, v := range targetVersions {
				name := fmt.Sprintf("%s/%s", kc.name, valueNames[letter])
				all = append(all, instance{install(t, c, name, doc, v), kc, letter})
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
			if in.c.methods != nil {
				ms = in.c.methods
				t.Logf("%s: methods %v only", in.k.name, ms)
			}
			for i, tr := range in.c.transitions {
				want := !strings.Contains(tr.allow, string(in.letter))
				for _, m := range ms {
					causes := d.transition(t, in.k, m, fmt.Sprintf("t%d-%s", i, m), object(t, tr.old), object(t, tr.new))
					if got := len(causes) > 0; got != want {
						t.Errorf("%s: update %s -> %s with %s: rejected=%v, want %v (%q)", in.k.name, tr.old, tr.new, m, got, want, causes)
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
