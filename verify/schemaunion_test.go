package verify_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/verify"
)

// declareUnion puts a union on the object n now and then, when it has at
// least two optional properties without a default: with or without a
// discriminator (a string property type, added for it), at most one or
// exactly one member. A union of the root's spec or status is nested one
// level; one of list items and map values comes with them.
func (g *schemaGen) declareUnion(n map[string]interface{}) {
	props := n["properties"].(map[string]interface{})
	required, _ := n["required"].([]interface{})
	var optional []string
	for _, name := range sortedNames(props) {
		p, _ := props[name].(map[string]interface{})
		if _, defaulted := p["default"]; !defaulted && !slices.Contains(required, interface{}(name)) {
			optional = append(optional, name)
		}
	}
	if len(optional) < 2 || g.rnd.Intn(2) == 0 {
		return
	}
	g.rnd.Shuffle(len(optional), func(i, j int) { optional[i], optional[j] = optional[j], optional[i] })
	members := map[string]interface{}{}
	for _, name := range optional[:2+g.rnd.Intn(len(optional)-1)] {
		members[name] = strings.ToUpper(name[:1]) + name[1:]
	}
	u := map[string]interface{}{"fields-to-discriminateBy": members}
	if _, taken := props["type"]; !taken && g.rnd.Intn(2) == 0 {
		props["type"] = map[string]interface{}{"type": "string", "maxLength": int64(16)}
		u["discriminator"] = "type"
	}
	if g.rnd.Intn(2) == 0 {
		u["exactlyOne"] = true
	}
	n["x-kubernetes-unions"] = []interface{}{u}
	g.decls++
}

// dropUnionsOf removes the unions of a list-map item that name one of its
// key fields, which listMap made required scalars after the union was
// declared.
func dropUnionsOf(item map[string]interface{}, keys []interface{}) {
	unions, _ := item["x-kubernetes-unions"].([]interface{})
	var kept []interface{}
	for _, e := range unions {
		u := e.(map[string]interface{})
		members := u["fields-to-discriminateBy"].(map[string]interface{})
		clash := slices.Contains(keys, u["discriminator"])
		for _, k := range keys {
			if _, ok := members[k.(string)]; ok {
				clash = true
			}
		}
		if !clash {
			kept = append(kept, u)
		}
	}
	if len(kept) == 0 {
		delete(item, "x-kubernetes-unions")
		return
	}
	item["x-kubernetes-unions"] = kept
}

// TestUnionRandomSchemas generates random schemas with unions, which
// translate does not compile yet (so TestRandomSchemas leaves them out),
// and pairs for them: the checker reads every generated union, the pairs
// hold every shape of a union's node, and the checker judges them all,
// reporting every kind of union violation, without a panic.
func TestUnionRandomSchemas(t *testing.T) {
	const schemas, pairs = 60, 40
	kinds := map[string]int{}
	declared := map[string]int{}
	st := verify.UnionPairStats{Kinds: map[string]int{}, Shapes: map[string]int{}}
	for seed := int64(1); seed <= schemas; seed++ {
		doc := randomCRDWith(seed, genOptions{unions: true})
		countUnions(doc, declared)
		for _, v := range doc["spec"].(map[string]interface{})["versions"].([]interface{}) {
			raw := v.(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
			got, err := verify.GenerateUnionPairs(raw, seed, pairs)
			if err != nil {
				t.Fatalf("schema seed %d: %v\n%s", seed, err, docYAML(doc))
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
	for _, k := range []string{"discriminator", "no discriminator", "exactlyOne", "atMostOne", "in items", "in map values", "nested"} {
		if declared[k] == 0 {
			t.Errorf("no union generated %s", k)
		}
	}
	for _, k := range []string{"members: 0", "members: 1", "members: 2+", "null member", "selects a member", "selects none", "unset"} {
		if st.Shapes[k] == 0 {
			t.Errorf("no union node in a new object with %s", k)
		}
	}
	for _, k := range []string{"union: several members", "union: no member", "union: member not selected", "union: selected member unset", "union: discriminator unset"} {
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
