// Package hostile generates OpenAPI v3 documents made to exhaust a reader
// of references, for the tests that must see them refused: small files
// whose schemas expand to far more than they hold. Nothing large is
// committed; each test makes what it reads.
//
// Every document serves one kind, Widget of the given group, version v1,
// namespaced, from its schema "A": a declarations file can name it as
// widgets.<group>, and its .spec.x is a string to declare on.
package hostile

import (
	"encoding/json"
	"fmt"
	"strings"
)

// document writes an OpenAPI v3 document of the schemas, A being the
// kind's, with the path that serves it.
func document(group string, schemas map[string]interface{}) []byte {
	gvk := map[string]interface{}{"group": group, "version": "v1", "kind": "Widget"}
	a := schemas["A"].(map[string]interface{})
	a["x-kubernetes-group-version-kind"] = []interface{}{gvk}
	props, _ := a["properties"].(map[string]interface{})
	if props == nil {
		props = map[string]interface{}{}
		a["properties"] = props
	}
	props["spec"] = object(map[string]interface{}{"x": map[string]interface{}{"type": "string"}})
	data, err := json.Marshal(map[string]interface{}{
		"openapi": "3.0.0",
		"paths": map[string]interface{}{
			"/apis/" + group + "/v1/namespaces/{namespace}/widgets": map[string]interface{}{
				"get": map[string]interface{}{"x-kubernetes-group-version-kind": gvk},
			},
		},
		"components": map[string]interface{}{"schemas": schemas},
	})
	if err != nil {
		panic(err) // maps of strings always encode
	}
	return data
}

func object(props map[string]interface{}) map[string]interface{} {
	return map[string]interface{}{"type": "object", "properties": props}
}

func ref(name string) map[string]interface{} {
	return map[string]interface{}{"$ref": "#/components/schemas/" + name}
}

// MutualReferences is the bomb of three schemas, A, B and C, of width
// properties each, every property of A a reference to B, of B to C, of C
// to A: the schema of A expands to width³ properties before the
// recursion back to A is cut (8 million for a width of 200, from 24 KB).
func MutualReferences(group string, width int) []byte {
	names := []string{"A", "B", "C"}
	schemas := map[string]interface{}{}
	for i, name := range names {
		props := map[string]interface{}{}
		for j := range width {
			props[fmt.Sprintf("p%d", j)] = ref(names[(i+1)%len(names)])
		}
		schemas[name] = object(props)
	}
	return document(group, schemas)
}

// WideReferences is A with width properties that each refer to B, of
// width string properties: width² small values, shallow and short, so
// that their number and not their bytes is what grows.
func WideReferences(group string, width int) []byte {
	a, b := map[string]interface{}{}, map[string]interface{}{}
	for j := range width {
		a[fmt.Sprintf("p%d", j)] = ref("B")
		b[fmt.Sprintf("q%d", j)] = map[string]interface{}{"type": "string"}
	}
	return document(group, map[string]interface{}{"A": object(a), "B": object(b)})
}

// ReferenceChain is A referring to S1 through its property next, S1 to
// S2, and so on to Sn, a string: a schema n properties deep from a
// document of n small schemas.
func ReferenceChain(group string, n int) []byte {
	schemas := map[string]interface{}{"A": object(map[string]interface{}{"next": ref("S1")})}
	for i := 1; i < n; i++ {
		schemas[fmt.Sprintf("S%d", i)] = object(map[string]interface{}{"next": ref(fmt.Sprintf("S%d", i+1))})
	}
	schemas[fmt.Sprintf("S%d", n)] = map[string]interface{}{"type": "string"}
	return document(group, schemas)
}

// SelfReferences is A whose width properties, the items of its list
// all, and the values of its map any, all refer to A itself, as
// JSONSchemaProps does.
func SelfReferences(group string, width int) []byte {
	props := map[string]interface{}{
		"all": map[string]interface{}{"type": "array", "items": ref("A")},
		"any": map[string]interface{}{"type": "object", "additionalProperties": ref("A")},
	}
	for j := range width {
		props[fmt.Sprintf("p%d", j)] = ref("A")
	}
	return document(group, map[string]interface{}{"A": object(props)})
}

// NestedAllOf is A whose property deep is depth allOf wrappers, each of the
// next, around a string: JSON nested twice as deep, or the same in YAML's
// flow style when yaml is true.
func NestedAllOf(group string, depth int, yaml bool) []byte {
	const hole = `"HOLE"`
	data := string(document(group, map[string]interface{}{"A": object(map[string]interface{}{"deep": "HOLE"})}))
	deep := strings.Repeat(`{"allOf": [`, depth) + `{"type": "string"}` + strings.Repeat(`]}`, depth)
	data = strings.Replace(data, hole, deep, 1)
	if yaml {
		// JSON is YAML's flow style; a leading comment makes it read as
		// YAML, not JSON.
		data = "# YAML\n" + data
	}
	return []byte(data)
}
