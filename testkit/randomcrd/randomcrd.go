// Package randomcrd makes CRD documents with random schemas and
// declarations, for the tests that translate them, verify their rules and
// policies, and normalize their unions: nested objects, atomic lists,
// sets, list-maps and maps, scalars with formats, enums, patterns and
// defaults, nullable and required properties, property names that need
// escaping in CEL, and now and then a union (Options.Unions).
//
// A seed gives the same document on every run, so a failing seed can be
// replayed; a change here changes which schemas every such test checks.
package randomcrd

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
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
	// zeroIn draws, apart from rnd and optIn for the same reason, which
	// members of a union read their zero value as unset (zeroIsUnset).
	zeroIn *rand.Rand
	Options
}

// Options switch on kinds of declaration beyond the mutability ones. Off,
// the generator draws the same numbers, and so makes the same schemas, as
// before the option existed.
type Options struct {
	// Unions puts x-kubernetes-unions on objects with at least two
	// optional properties (unions.go).
	Unions bool
}

// awkwardNames are property names: plain ones, ones CEL reaches only
// through escaping (namespace, in, if, null, x-y, a.b, foo__bar), ones that
// read as escapes, which the apiserver's object == skips or reads as
// another property (__meta__, __kind__, x__dash__y beside x-y), and ones
// with a meaning elsewhere (metadata, self, spec).
var awkwardNames = []string{"a", "b", "c", "name", "namespace", "x-y", "a.b", "in", "foo__bar", "spec", "metadata", "self", "if", "null",
	"__meta__", "__kind__", "x__dash__y"}

const maxDepth = 4

// New returns a CRD document with one or two versions, each with at
// least one declaration, and the declarations o switches on. The versions
// declare independently, which translate accepts only when a conversion
// webhook may store them differently (semantics.md 1.1.6), so a CRD with
// two has one. The same seed and options give the same document.
func New(seed int64, o Options) map[string]interface{} {
	g := &schemaGen{rnd: rand.New(rand.NewSource(seed)), optIn: rand.New(rand.NewSource(^seed)),
		zeroIn: rand.New(rand.NewSource(seed ^ 0x5a5a5a5a)), Options: o}
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
	if g.Unions {
		g.declareUnion(n)
	}
	if g.rnd.Intn(12) == 0 {
		n["x-kubernetes-map-type"] = "atomic"
	}
	return n
}

// Count is how many random schemas a test checks: 1000, 100 with -short,
// or MUT2CEL_SCHEMAS for longer runs.
func Count(tb testing.TB) int {
	if s := os.Getenv("MUT2CEL_SCHEMAS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			tb.Fatalf("MUT2CEL_SCHEMAS=%q: %v", s, err)
		}
		return n
	}
	if testing.Short() {
		return 100
	}
	return 1000
}

// OptionsFromEnv are the declarations tests generate beyond the
// mutability ones: unions, which translate compiles and the checker
// judges each on its own. MUT2CEL_UNIONS=0 leaves them out, to see whether
// a failure is theirs.
func OptionsFromEnv() Options {
	return Options{Unions: os.Getenv("MUT2CEL_UNIONS") != "0"}
}

// The floors of the statistics of a run over random schemas: below
// MinStatsSchemas schemas there are too few to check them; at least
// VerifiedFloor percent of the schemas must verify, else a translator that
// refused every schema would pass.
const (
	MinStatsSchemas = 100
	VerifiedFloor   = 60
)
