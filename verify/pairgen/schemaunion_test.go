package pairgen_test

import (
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/testkit/randomcrd"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// TestUnionRandomSchemas generates random schemas with unions, which
// translate does not compile yet (so TestRandomSchemas leaves them out),
// and pairs for them: the checker reads every generated union, the pairs
// hold every shape of a union's node, and the checker judges them all,
// reporting every kind of union violation, without a panic.
func TestUnionRandomSchemas(t *testing.T) {
	const schemas, pairs = 60, 40
	kinds := map[string]int{}
	declared := map[string]int{}
	st := pairgen.UnionPairStats{Kinds: map[string]int{}, Shapes: map[string]int{}}
	for seed := int64(1); seed <= schemas; seed++ {
		doc := randomcrd.New(seed, randomcrd.Options{Unions: true})
		countUnions(doc, declared)
		for _, v := range doc["spec"].(map[string]interface{})["versions"].([]interface{}) {
			raw := v.(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
			got, err := pairgen.GenerateUnionPairs(raw, seed, pairs)
			if err != nil {
				t.Fatalf("schema seed %d: %v\n%s", seed, err, testcrd.YAML(doc))
			}
			st.Pairs += got.Pairs
			for k, n := range got.Kinds {
				kinds[k] += n
			}
			for k, n := range got.Shapes {
				st.Shapes[k] += n
			}
		}
	}
	t.Logf("unions declared: %v\nshapes: %v\nviolations: %v", declared, st.Shapes, kinds)
	for _, k := range []string{"discriminator", "no discriminator", "exactlyOne", "atMostOne", "in items", "in map values", "nested", "zeroIsUnset"} {
		if declared[k] == 0 {
			t.Errorf("no union generated %s", k)
		}
	}
	for _, k := range []string{"members: 0", "members: 1", "members: 2+", "null member", "selects a member", "selects none", "unset"} {
		if st.Shapes[k] == 0 {
			t.Errorf("no union node in a new object with %s", k)
		}
	}
	// An unset discriminator is no violation of its own since it reads
	// as "" (semantics.md 11.3): it selects nothing.
	for _, k := range []string{"union: several members", "union: no member", "union: member not selected", "union: selected member unset"} {
		if kinds[k] == 0 {
			t.Errorf("no violation of kind %q", k)
		}
	}
}

// countUnions counts the unions of doc by the ways TestUnionRandomSchemas
// wants them made.
func countUnions(doc map[string]interface{}, out map[string]int) {
	var walk func(v interface{}, path string)
	walk = func(v interface{}, path string) {
		switch x := v.(type) {
		case map[string]interface{}:
			if unions, ok := x["x-kubernetes-unions"].([]interface{}); ok {
				for _, e := range unions {
					u := e.(map[string]interface{})
					out[map[bool]string{true: "discriminator", false: "no discriminator"}[u["discriminator"] != nil]]++
					out[map[bool]string{true: "exactlyOne", false: "atMostOne"}[u["exactlyOne"] == true]]++
					if u["zeroIsUnset"] != nil {
						out["zeroIsUnset"]++
					}
					switch {
					case strings.HasSuffix(path, "/items"):
						out["in items"]++
					case strings.HasSuffix(path, "/additionalProperties"):
						out["in map values"]++
					case strings.Count(path, "/properties/") > 2:
						out["nested"]++
					}
				}
			}
			for k, e := range x {
				walk(e, path+"/"+k)
			}
		case []interface{}:
			for _, e := range x {
				walk(e, path)
			}
		}
	}
	walk(doc, "")
}
