package pairgen

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/corpus"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// nestedListMap declares spec.policies, an atomic list whose items hold a
// list-map two levels down: the shape of JobSet's volumeClaimPolicies.
const nestedListMap = `
type: object
properties:
  spec:
    type: object
    properties:
      policies:
        type: array
        x-kubernetes-mutability: Immutable
        items:
          type: object
          properties:
            name: {type: string}
            status:
              type: object
              properties:
                conditions:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [type]
                  items:
                    type: object
                    required: [type]
                    properties:
                      type: {type: string}
                      message: {type: string}
`

// TestScheduleReordersNestedListMaps checks that the schedule reorders a
// list-map nested in the items of a declared atomic list within a small
// number of pairs, and more than once, whatever the seed.
func TestScheduleReordersNestedListMaps(t *testing.T) {
	conditions := schemapath.Path{schemapath.Prop("spec"), schemapath.Prop("policies"), {Kind: schemapath.Items},
		schemapath.Prop("status"), schemapath.Prop("conditions")}
	s := structuralOf(t, nestedListMap)
	targets := mustChecker(t, nestedListMap).DeclaredPaths()
	const pairs = 100
	for seed := int64(1); seed <= 5; seed++ {
		g := newGenerator(s, seed, targets)
		count, first := 0, 0
		for i := 1; i <= pairs; i++ {
			old, new := g.Next()
			if reorders(old, new, conditions) {
				count++
				if first == 0 {
					first = i
				}
			}
		}
		t.Logf("seed %d: %d of %d pairs reorder %s, the first is pair %d", seed, count, pairs, conditions.String(), first)
		// The schedule has two aims, policies then its conditions: one
		// reorder per round of 2*scheduleEvery pairs.
		if want := pairs / (2 * scheduleEvery); count < want {
			t.Errorf("seed %d: %d of %d pairs reorder %s, want at least %d", seed, count, pairs, conditions.String(), want)
		}
	}
}

// reorders reports whether new is old with only the items of one list at
// path put in another order: every other value along the path is equal.
func reorders(old, new interface{}, path schemapath.Path) bool {
	if len(path) == 0 {
		o, ok1 := old.([]interface{})
		n, ok2 := new.([]interface{})
		return ok1 && ok2 && jsonvalue.Canonical(o) != jsonvalue.Canonical(n) && sameItems(o, n)
	}
	switch path[0].Kind {
	case schemapath.Property:
		o, ok1 := old.(map[string]interface{})
		n, ok2 := new.(map[string]interface{})
		if !ok1 || !ok2 || !equalBut(o, n, path[0].Name) {
			return false
		}
		return reorders(o[path[0].Name], n[path[0].Name], path[1:])
	case schemapath.Items:
		o, ok1 := old.([]interface{})
		n, ok2 := new.([]interface{})
		if !ok1 || !ok2 || len(o) != len(n) {
			return false
		}
		moved := -1
		for i := range o {
			if jsonvalue.Canonical(o[i]) != jsonvalue.Canonical(n[i]) {
				if moved >= 0 {
					return false
				}
				moved = i
			}
		}
		return moved >= 0 && reorders(o[moved], n[moved], path[1:])
	}
	return false
}

// equalBut reports whether two objects are equal except, maybe, at key.
func equalBut(o, n map[string]interface{}, key string) bool {
	o2, n2 := jsonvalue.CopyMap(o), jsonvalue.CopyMap(n)
	delete(o2, key)
	delete(n2, key)
	return jsonvalue.Canonical(o2) == jsonvalue.Canonical(n2)
}

// sameItems reports whether two lists hold the same items, in any order.
func sameItems(a, b []interface{}) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for i := range a {
		count[jsonvalue.Canonical(a[i])]++
		count[jsonvalue.Canonical(b[i])]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

func mustChecker(t testing.TB, text string) *reference.Checker {
	t.Helper()
	var raw map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &raw); err != nil {
		t.Fatal(err)
	}
	c, err := reference.NewChecker(raw)
	if err != nil {
		t.Fatalf("NewChecker(%s) = %v, want no error", text, err)
	}
	return c
}

func structuralOf(t testing.TB, text string) *schema.Structural {
	t.Helper()
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.Unmarshal([]byte(text), props); err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(props)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestScheduleReordersJobSetConditions is the case the schedule was made
// for: with .spec.volumeClaimPolicies of JobSet declared Immutable, the
// conditions in the status of its claim templates, a list-map under two
// atomic lists, are reordered within the first 2,000 pairs.
func TestScheduleReordersJobSetConditions(t *testing.T) {
	c := corpus.Case{File: "jobset/jobset.x-k8s.io_jobsets.yaml", Declarations: map[string]map[string]map[string]interface{}{
		"v1alpha2": {".spec.volumeClaimPolicies": {decl.ExtMutability: "Immutable"}},
	}}
	declared, err := declread.CRD(c.Declared(t), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	model := mustRead(t, declared)
	crd, err := model.Typed()
	if err != nil {
		t.Fatal(err)
	}
	v := model.Versions[0]
	checker, err := reference.NewChecker(v.Raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := kube.Structural(crd.Spec.Versions[v.Index].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	conditions := schemapath.Path{schemapath.Prop("spec"), schemapath.Prop("volumeClaimPolicies"), {Kind: schemapath.Items},
		schemapath.Prop("templates"), {Kind: schemapath.Items}, schemapath.Prop("status"), schemapath.Prop("conditions")}
	const seed, pairs = 1, 2000
	g := newGenerator(s, seed, checker.DeclaredPaths())
	count, first := 0, 0
	for i := 1; i <= pairs; i++ {
		old, new := g.Next()
		if reorders(old, new, conditions) {
			count++
			if first == 0 {
				first = i
			}
		}
	}
	t.Logf("seed %d: %d of %d pairs reorder %s, the first is pair %d; schedule of %d aims", seed, count, pairs, conditions.String(), first, len(g.schedule))
	if count == 0 {
		t.Errorf("none of %d pairs reorders %s", pairs, conditions.String())
	}
}
