package verify

import (
	"fmt"
	"testing"
)

// CounterCRD is the small CRD of the tests of companions and shared
// rules, in this package and in verify_test: spec.name is a string of at
// most 8 characters, with name added to its entries (a declaration or
// rules, YAML flow style); spec.count has the entries count (its type,
// rules, bounds); extra is YAML added to the properties of spec.
func CounterCRD(t testing.TB, name, count, extra string) map[string]interface{} {
	t.Helper()
	return decodeYAML(t, []byte(fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: counters.example.com}
spec:
  group: example.com
  names: {kind: Counter, listKind: CounterList, plural: counters, singular: counter}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: 8, %s}
              count: {%s}
              %s
`, name, count, extra)))
}

// ValidityDecisions returns how many objects CheckValidity has validated
// both ways so far, and how many of them validity and the apiserver's
// validation each refused.
func ValidityDecisions() (compared, refusedFast, refusedAPIServer int64) {
	d := &validityDecisions
	return d.compared.Load(), d.refusedFast.Load(), d.refusedAPIServer.Load()
}
