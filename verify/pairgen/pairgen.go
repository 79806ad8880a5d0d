package pairgen

import (
	"math/rand"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// Generator generates updates of the custom resources of one schema:
// pairs of an old and a new object as a client sends them, before the
// storage pipeline. Old objects are built from the schema (types, enums,
// formats, bounds, patterns, required properties, unique set items and
// list-map keys); new ones are derived from the old by one to three
// mutation operators aimed at target nodes (add, remove, change or null a
// field; add or remove an optional parent; add, remove or rename a key;
// reorder, append, prepend, truncate a list; change a value nested in an
// item; send an integer as 1.0), and some pairs are drawn independently.
// One pair in scheduleEvery follows a schedule instead (schedule.go): each
// target in turn, and each set and list-map at or below a target, at any
// depth, reordered. The same schema and seed give the same pairs.
type Generator struct {
	root    *gnode
	rnd     *rand.Rand
	targets []schemapath.Path // nodes mutations aim at
	all     []schemapath.Path // every node
	size    int               // nodes generated for the current object
	// schedule is aimed at in turn, one pair in scheduleEvery; n counts
	// the pairs made.
	schedule []aim
	n        int
	// even makes every optional property an even chance, aimed or not
	// (repair).
	even bool
}

// New returns a generator for objects of s. Its mutations aim at the
// nodes that carry x-kubernetes-validations rules and at the fields the
// rules name with fieldPath: in a translated CRD, that is where the
// declarations were.
func New(s *schema.Structural, seed int64) *Generator {
	return newGenerator(s, seed, schemapath.RuleTargets(s))
}

// NewFor is New that also shapes the unions c reads (pairunion.go), as
// verify's own runs do: members set one at a time and discriminators
// selecting each, valid and not, so that a caller that creates the
// objects is not left with nearly all of them refused.
func NewFor(s *schema.Structural, seed int64, c *reference.Checker) *Generator {
	g := New(s, seed)
	g.useUnions(c)
	return g
}

// NewDeclared is the generator of verify's runs: its mutations aim at the
// nodes c declares, wherever the rules under test are, and it shapes the
// unions c reads.
func NewDeclared(s *schema.Structural, seed int64, c *reference.Checker) *Generator {
	g := newGenerator(s, seed, c.DeclaredPaths())
	g.useUnions(c)
	return g
}

func newGenerator(s *schema.Structural, seed int64, targets []schemapath.Path) *Generator {
	rnd := rand.New(rand.NewSource(seed))
	g := &Generator{root: compileSchema(s, rnd, true), rnd: rnd}
	g.root.allPaths(nil, &g.all)
	for _, t := range targets {
		if g.root.at(t) != nil {
			g.targets = append(g.targets, t)
			g.root.aim(t)
		}
	}
	g.schedule = scheduleOf(g.root, g.targets)
	return g
}

// Next returns the next pair. The objects are fresh and share nothing, so
// the caller may change them (the storage pipeline does, in place). They
// carry no apiVersion, kind or metadata.
func (g *Generator) Next() (old, new map[string]interface{}) {
	g.n++
	if len(g.schedule) > 0 && g.n%scheduleEvery == 0 {
		a := g.schedule[(g.n/scheduleEvery-1)%len(g.schedule)]
		if old, new, ok := g.scheduledPair(a); ok {
			return old, new
		}
	}
	old = g.rootValue()
	if g.rnd.Intn(16) == 0 {
		return old, g.rootValue() // an unrelated pair
	}
	return old, g.derive(old)
}

// derive makes a new object from old by one to three mutations; old is
// left as it is.
func (g *Generator) derive(old map[string]interface{}) map[string]interface{} {
	new := jsonvalue.CopyMap(old)
	for k := g.mutations(); k > 0; k-- {
		g.size = 0
		new = g.mutate(new)
	}
	return new
}

func (g *Generator) rootValue() map[string]interface{} {
	g.size = 0
	return g.object(g.root)
}

// mutations is how many operators make a new object: none in one pair of
// sixteen (an update that changes nothing must be allowed), mostly one.
func (g *Generator) mutations() int {
	switch r := g.rnd.Intn(16); {
	case r == 0:
		return 0
	case r < 10:
		return 1
	case r < 14:
		return 2
	}
	return 3
}
