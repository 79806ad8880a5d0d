package verify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/translate"
)

// BenchmarkPairsDeclaredFields measures the cost of a pair as the number
// of declared fields grows: a spec of n string fields, each declared
// Immutable. The cost per pair should grow at most linearly with n.
//
//	go test ./verify -run '^$' -bench 'PairsDeclaredFields'
func BenchmarkPairsDeclaredFields(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("fields=%d", n), func(b *testing.B) {
			benchPairs(b, allVersionsRun(b, wideCRD(n), translate.Options{}, "v1"))
		})
	}
}

// wideCRD is a CRD whose spec has n string fields, each declared
// Immutable.
func wideCRD(n int) map[string]interface{} {
	props := map[string]interface{}{}
	var decls strings.Builder
	decls.WriteString("v1:\n")
	for i := 0; i < n; i++ {
		props[fmt.Sprintf("f%d", i)] = map[string]interface{}{"type": "string", "maxLength": int64(64)}
		fmt.Fprintf(&decls, "  .spec.f%d: {x-kubernetes-mutability: Immutable}\n", i)
	}
	schema := map[string]interface{}{
		"type": "object",
		"properties": map[string]interface{}{
			"spec": map[string]interface{}{"type": "object", "properties": props},
		},
	}
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]interface{}{
			"name":        "wides.example.com",
			"annotations": map[string]interface{}{"mut2cel.io/declarations": decls.String()},
		},
		"spec": map[string]interface{}{
			"group": "example.com",
			"scope": "Namespaced",
			"names": map[string]interface{}{"kind": "Wide", "plural": "wides", "singular": "wide", "listKind": "WideList"},
			"versions": []interface{}{map[string]interface{}{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]interface{}{"openAPIV3Schema": schema},
			}},
		},
	}
}
