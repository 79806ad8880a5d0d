package verify_test

import (
	"fmt"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/verify"
)

// A hand-written rule that keeps a field immutable with self == oldSelf
// lets the field be removed: the verifier finds the update and shrinks it.
func ExampleVerify() {
	declared := crd(`
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, maxLength: 8, x-kubernetes-mutability: Immutable}`)
	handWritten := crd(`
type: object
properties:
  spec:
    type: object
    properties:
      class:
        type: string
        maxLength: 8
        x-kubernetes-validations:
        - rule: self == oldSelf`)
	report, err := verify.Verify(declared, handWritten, verify.Options{Pairs: 1000, Seed: 1, Counterexamples: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := report.Versions[0]
	fmt.Printf("%d disagreements in %d pairs\n", v.Disagreements, v.Pairs)
	fmt.Printf("%s", v.Counterexamples[0].YAML())
	// Output:
	// 453 disagreements in 1000 pairs
	// crd: widgets.example.com
	// version: v1
	// pair: 2
	// reference: denied
	// violations:
	//   - 'spec.class: presence: Immutable: field was removed; it may be neither added nor removed (declared at .spec.class)'
	// cel: allowed
	// errors: []
	// rules:
	//   - path: .spec.class
	//     rule: self == oldSelf
	// old:
	//   spec:
	//     class: ""
	// new: {}
}

// crd wraps a version schema in a CRD document.
func crd(schema string) map[string]interface{} {
	var s map[string]interface{}
	if err := yaml.Unmarshal([]byte(schema), &s); err != nil {
		panic(err)
	}
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": "widgets.example.com"},
		"spec": map[string]interface{}{
			"group": "example.com",
			"names": map[string]interface{}{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"scope": "Namespaced",
			"versions": []interface{}{map[string]interface{}{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": s},
			}},
		},
	}
}
