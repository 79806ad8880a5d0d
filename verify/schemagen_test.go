package verify_test

import (
	"math/rand"
)

// schemaGen generates random CRD schemas with declarations, presence-only
// ones (x-kubernetes-update: NoSet, NoUnset) among them: nested objects,
// atomic lists, sets, list-maps and maps, scalars with formats, enums,
// patterns and defaults, nullable and required properties, and property
// names that need escaping in CEL. Strings, lists and maps are bounded so
// that the generated rules fit the apiserver's cost limits.
type schemaGen struct {
	rnd   *rand.Rand
	decls int
	// optIn draws, apart from rnd so that a seed gives the schema it gave
	// before the opt-in existed, whether a declaration compares formatted
	// strings as values (x-mut2cel-formats); nil never.
	optIn *rand.Rand
	genOptions
}

// genOptions switch on kinds of declaration that translate does not
// compile yet. Off, the generator draws the same numbers, and so makes
// the same schemas, as before the option existed.
type genOptions struct {
	// unions puts x-kubernetes-unions on objects with at least two
	// optional properties (schemaunion_test.go).
	unions bool
}

// awkwardNames are property names: plain ones, ones CEL reaches only
// through escaping (namespace, in, if, null, x-y, a.b, foo__bar), ones that
// read as escapes, which the apiserver's object == skips or reads as
// another property (__meta__, __kind__, x__dash__y beside x-y), and ones
// with a meaning elsewhere (metadata, self, spec).
var awkwardNames = []string{"a", "b", "c", "name", "namespace", "x-y", "a.b", "in", "foo__bar", "spec", "metadata", "self", "if", "null",
	"__meta__", "__kind__", "x__dash__y"}

const maxDepth = 4

// randomCRD returns a CRD document with one or two versions, each with at
// least one declaration. The versions declare independently, which
// translate accepts only when a conversion webhook may store them
// differently (semantics.md 1.1.6), so a CRD with two has one.
func randomCRD(seed int64) map[string]interface{} {
	return randomCRDWith(seed, genOptions{})
}

// randomCRDWith is randomCRD with the declarations the options switch on.
func randomCRDWith(seed int64, o genOptions) map[string]interface{} {
	g := &schemaGen{rnd: rand.New(rand.NewSource(seed)), optIn: rand.New(rand.NewSource(^seed)), genOptions: o}
	versions := []interface{}{g.version("v1", true, true)}
	if g.rnd.Intn(4) == 0 {
		versions = append(versions, g.version("v2", g.rnd.Intn(2) == 0, false))
	}
	spec := map[string]interface{}{
		"group": "example.com",
		"names": map[string]interface{}{"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
		"scope": "Namespaced", "versions": versions,
	}
	if len(versions) > 1 {
		spec["conversion"] = map[string]interface{}{"strategy": "Webhook", "webhook": map[string]interface{}{
			"conversionReviewVersions": []interface{}{"v1"},
			"clientConfig":             map[string]interface{}{"url": "https://convert.example.com/"},
		}}
	}
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]interface{}{"name": "things.example.com"},
		"spec":       spec,
	}
}

func (g *schemaGen) version(name string, served, storage bool) map[string]interface{} {
	var root map[string]interface{}
	for g.decls = 0; g.decls == 0; {
		props := map[string]interface{}{"spec": g.object(1)}
		if g.rnd.Intn(3) == 0 {
			props["status"] = g.object(1)
		}
		root = map[string]interface{}{"type": "object", "properties": props}
	}
	return map[string]interface{}{
		"name": name, "served": served, "storage": storage,
		"schema": map[string]interface{}{"openAPIV3Schema": root},
	}
}

// node generates any schema; deeper nodes are mostly scalars.
func (g *schemaGen) node(depth int) map[string]interface{} {
	kinds := 10
	if depth >= maxDepth {
		kinds = 4
	}
	var n map[string]interface{}
	if g.rnd.Intn(40) == 0 {
		n = g.rare()
		g.declare(n)
		return n
	}
	switch k := g.rnd.Intn(kinds); k {
	case 0, 1, 2, 3:
		n = g.scalar()
	case 4, 5:
		n = g.object(depth + 1)
	case 6:
		n = g.mapSchema(depth + 1)
	case 7:
		n = g.atomicList(depth + 1)
	case 8:
		n = g.setList()
	default:
		n = g.listMap(depth + 1)
	}
	g.declare(n)
	return n
}

// declare puts a random legal declaration on n now and then.
func (g *schemaGen) declare(n map[string]interface{}) {
	_, values := n["additionalProperties"].(map[string]interface{})
	collection := n["type"] == "array" || values
	if g.rnd.Intn(4) == 0 {
		values := []string{"Immutable", "AddOnly", "RemoveOnly"}
		if collection {
			values = values[:1]
		}
		n["x-kubernetes-mutability"] = values[g.rnd.Intn(len(values))]
		g.decls++
		g.compareAsValues(n)
	}
	if collection && g.rnd.Intn(3) == 0 {
		n["x-kubernetes-key-mutability"] = []string{"Immutable", "AddOnly", "RemoveOnly"}[g.rnd.Intn(3)]
		g.decls++
		g.compareAsValues(n)
	}
}

// compareAsValues puts x-mut2cel-formats: CompareAsValues beside the
// declarations of n half the time where a string of format date-time,
// duration or byte is at or below n, the declarations the opt-in is for.
func (g *schemaGen) compareAsValues(n map[string]interface{}) {
	if g.optIn != nil && formattedAtOrBelow(n) && g.optIn.Intn(2) == 0 {
		n["x-mut2cel-formats"] = "CompareAsValues"
	}
}

func formattedAtOrBelow(n map[string]interface{}) bool {
	switch n["format"] {
	case "date-time", "duration", "byte":
		return n["type"] == "string"
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := n[key].(map[string]interface{}); ok && formattedAtOrBelow(sub) {
			return true
		}
	}
	props, _ := n["properties"].(map[string]interface{})
	for _, p := range props {
		if sub, ok := p.(map[string]interface{}); ok && formattedAtOrBelow(sub) {
			return true
		}
	}
	return false
}

// declarePresence puts NoSet, NoUnset or both (x-kubernetes-update) on
// the property p now and then, where p declares nothing else: presence
// alone, on strings CEL may not read (date-time, byte) too.
func (g *schemaGen) declarePresence(p map[string]interface{}) {
	if _, ok := p["x-kubernetes-mutability"]; ok || g.rnd.Intn(10) > 0 {
		return
	}
	p["x-kubernetes-update"] = [][]interface{}{{"NoSet"}, {"NoUnset"}, {"NoSet", "NoUnset"}}[g.rnd.Intn(3)]
	g.decls++
	g.compareAsValues(p)
}

func (g *schemaGen) object(depth int) map[string]interface{} {
	props := map[string]interface{}{}
	var required []interface{}
	for i := 1 + g.rnd.Intn(3); i > 0; i-- {
		name := awkwardNames[g.rnd.Intn(len(awkwardNames))]
		if g.rnd.Intn(200) == 0 {
			name = "1abc" // no CEL escaping: rules above it cannot name it
		}
		if _, dup := props[name]; dup {
			continue
		}
		p := g.node(depth)
		g.declarePresence(p)
		if g.rnd.Intn(6) == 0 {
			required = append(required, name)
		} else if g.rnd.Intn(6) == 0 {
			p["nullable"] = true
		}
		props[name] = p
	}
	n := map[string]interface{}{"type": "object", "properties": props}
	if len(required) > 0 {
		n["required"] = required
	}
	if g.unions {
		g.declareUnion(n)
	}
	if g.rnd.Intn(12) == 0 {
		n["x-kubernetes-map-type"] = "atomic"
	}
	return n
}

// bound sets a collection's maximum, now and then a minimum of one, and
// rarely leaves it unbounded (translate may then refuse on cost, or need
// two-variable comprehensions).
func (g *schemaGen) bound(n map[string]interface{}, maxKey, minKey string) map[string]interface{} {
	if g.rnd.Intn(16) > 0 {
		n[maxKey] = int64(1 + g.rnd.Intn(8))
	}
	if g.rnd.Intn(8) == 0 {
		n[minKey] = int64(1)
	}
	return n
}

// rare returns a schema translate may legitimately refuse to constrain:
// preserved unknown fields, int-or-string, a free-form object
// (additionalProperties: true), an embedded resource whose metadata has
// declarations of its own, which only name and generateName may carry.
func (g *schemaGen) rare() map[string]interface{} {
	switch g.rnd.Intn(4) {
	case 0:
		return map[string]interface{}{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	case 1:
		return map[string]interface{}{"x-kubernetes-int-or-string": true}
	case 2:
		return map[string]interface{}{"type": "object", "maxProperties": int64(4), "additionalProperties": true}
	}
	name := g.scalarOf("string")
	delete(name, "default")
	labels := g.bound(map[string]interface{}{"type": "object", "additionalProperties": g.scalarOf("string")}, "maxProperties", "minProperties")
	g.declare(name)
	g.declare(labels)
	n := map[string]interface{}{
		"type": "object", "x-kubernetes-embedded-resource": true,
		"properties": map[string]interface{}{
			"data":     map[string]interface{}{"type": "string", "maxLength": int64(8)},
			"metadata": map[string]interface{}{"type": "object", "properties": map[string]interface{}{"name": name, "labels": labels}},
		},
	}
	if g.rnd.Intn(2) == 0 {
		n["x-kubernetes-preserve-unknown-fields"] = true
	}
	return n
}

func (g *schemaGen) mapSchema(depth int) map[string]interface{} {
	return g.bound(map[string]interface{}{"type": "object", "additionalProperties": g.entry(depth)}, "maxProperties", "minProperties")
}

// entry is the schema of map values and atomic list items, now and then
// nullable: a null entry is a value (semantics.md 2.1), on which the
// apiserver runs no rule.
func (g *schemaGen) entry(depth int) map[string]interface{} {
	n := g.node(depth)
	if g.rnd.Intn(8) == 0 {
		n["nullable"] = true
	}
	return n
}

func (g *schemaGen) atomicList(depth int) map[string]interface{} {
	n := g.bound(map[string]interface{}{"type": "array", "items": g.entry(depth)}, "maxItems", "minItems")
	if g.rnd.Intn(2) == 0 {
		n["x-kubernetes-list-type"] = "atomic"
	}
	return n
}

// setList has scalar items, now and then atomic objects or lists: the
// apiserver requires set items to be scalars or atomic.
func (g *schemaGen) setList() map[string]interface{} {
	var items map[string]interface{}
	switch g.rnd.Intn(8) {
	case 0:
		items = map[string]interface{}{"type": "object", "x-kubernetes-map-type": "atomic", "properties": map[string]interface{}{
			"a": g.scalarOf("string"), g.pick("x-y", "__meta__"): g.scalarOf("integer"),
		}}
	case 1:
		items = map[string]interface{}{"type": "array", "x-kubernetes-list-type": "atomic", "maxItems": int64(3), "items": g.scalarOf("string")}
	default:
		items = g.scalar()
	}
	delete(items, "default")
	g.declare(items)
	return g.bound(map[string]interface{}{"type": "array", "x-kubernetes-list-type": "set", "items": items}, "maxItems", "minItems")
}

// listMap has one or two required scalar keys and other properties. A
// number key is paired by value, whatever its spelling (numberPool).
func (g *schemaGen) listMap(depth int) map[string]interface{} {
	item := g.object(depth)
	props := item["properties"].(map[string]interface{})
	var keys []interface{}
	for _, k := range []string{g.pick("k", "__kind__"), "x-y"}[:1+g.rnd.Intn(2)] {
		key := g.scalarOf([]string{"string", "integer", "number"}[g.rnd.Intn(3)])
		delete(key, "default")
		g.declare(key)
		props[k] = key
		keys = append(keys, k)
	}
	required, _ := item["required"].([]interface{})
	item["required"] = append(append([]interface{}{}, keys...), required...)
	dropUnionsOf(item, keys)
	return g.bound(map[string]interface{}{
		"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": keys, "items": item,
	}, "maxItems", "minItems")
}

func (g *schemaGen) pick(from ...string) string { return from[g.rnd.Intn(len(from))] }

func (g *schemaGen) scalar() map[string]interface{} {
	return g.scalarOf([]string{"string", "string", "integer", "number", "boolean"}[g.rnd.Intn(5)])
}

func (g *schemaGen) scalarOf(typ string) map[string]interface{} {
	n := map[string]interface{}{"type": typ}
	switch typ {
	case "string":
		n["maxLength"] = int64(1 + g.rnd.Intn(64))
		switch g.rnd.Intn(8) {
		case 0:
			n["enum"] = []interface{}{"a", "b"}
		case 1:
			n["format"] = []string{"date-time", "byte", "duration", "date"}[g.rnd.Intn(4)]
			n["maxLength"] = int64(64)
		case 2:
			n["pattern"] = "^[a-c]+(-[a-c]+)?$"
			n["maxLength"] = int64(16)
		}
		_, enum := n["enum"]
		_, format := n["format"]
		_, pattern := n["pattern"]
		if (enum || !format && !pattern) && g.rnd.Intn(6) == 0 {
			n["default"] = "a"
		}
	case "integer":
		if g.rnd.Intn(3) == 0 {
			n["minimum"], n["maximum"] = int64(0), int64(3)
		}
		if g.rnd.Intn(4) == 0 {
			n["format"] = "int32"
		}
		if g.rnd.Intn(5) == 0 {
			n["default"] = int64(1)
		}
	}
	return n
}
