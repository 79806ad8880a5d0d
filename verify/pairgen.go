package verify

import (
	"math/rand"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// PairGenerator generates updates of the custom resources of one schema:
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
type PairGenerator struct {
	root    *gnode
	rnd     *rand.Rand
	targets [][]step // nodes mutations aim at
	all     [][]step // every node
	size    int      // nodes generated for the current object
	// schedule is aimed at in turn, one pair in scheduleEvery; n counts
	// the pairs made.
	schedule []aim
	n        int
	// even makes every optional property an even chance, aimed or not
	// (repair).
	even bool
}

// NewPairGenerator returns a generator for objects of s. Its mutations aim
// at the nodes that carry x-kubernetes-validations rules and at the fields
// the rules name with fieldPath: in a translated CRD, that is where the
// declarations were.
func NewPairGenerator(s *schema.Structural, seed int64) *PairGenerator {
	return newPairGenerator(s, seed, ruleTargets(s))
}

// NewPairGeneratorFor is NewPairGenerator that also shapes the unions c
// reads (pairunion.go), as verify's own runs do: members set one at a
// time and discriminators selecting each, valid and not, so that a
// caller that creates the objects is not left with nearly all of them
// refused.
func NewPairGeneratorFor(s *schema.Structural, seed int64, c *Checker) *PairGenerator {
	g := NewPairGenerator(s, seed)
	g.useUnions(c)
	return g
}

func newPairGenerator(s *schema.Structural, seed int64, targets [][]step) *PairGenerator {
	rnd := rand.New(rand.NewSource(seed))
	g := &PairGenerator{root: compileSchema(s, rnd, true), rnd: rnd}
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
func (g *PairGenerator) Next() (old, new map[string]interface{}) {
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
func (g *PairGenerator) derive(old map[string]interface{}) map[string]interface{} {
	new := deepCopyMap(old)
	for k := g.mutations(); k > 0; k-- {
		g.size = 0
		new = g.mutate(new)
	}
	return new
}

func (g *PairGenerator) rootValue() map[string]interface{} {
	g.size = 0
	return g.object(g.root)
}

// mutations is how many operators make a new object: none in one pair of
// sixteen (an update that changes nothing must be allowed), mostly one.
func (g *PairGenerator) mutations() int {
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

// ruleTargets lists the nodes with rules and the fields their fieldPath
// names.
func ruleTargets(s *schema.Structural) [][]step {
	var out [][]step
	var walk func(s *schema.Structural, path []step)
	walk = func(s *schema.Structural, path []step) {
		for _, r := range s.XValidations {
			out = append(out, path)
			if fp := parseFieldPath(r.FieldPath); fp != nil {
				out = append(out, append(append([]step{}, path...), fp...))
			}
		}
		for _, name := range sortedStructuralKeys(s.Properties) {
			p := s.Properties[name]
			walk(&p, extend(path, step{stepProp, name}))
		}
		if s.Items != nil {
			walk(s.Items, extend(path, step{kind: stepItems}))
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			walk(s.AdditionalProperties.Structural, extend(path, step{kind: stepValues}))
		}
	}
	walk(s, nil)
	return out
}

// parseFieldPath reads the property steps of a rule's fieldPath, written
// .a.b or ['a.b'] (the forms the apiserver accepts); nil when it has none
// or uses list indexing.
func parseFieldPath(fp string) []step {
	var out []step
	for fp != "" {
		switch {
		case strings.HasPrefix(fp, "['"):
			end := strings.Index(fp, "']")
			if end < 0 {
				return nil
			}
			name := strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(fp[2:end])
			out, fp = append(out, step{stepProp, name}), fp[end+2:]
		case strings.HasPrefix(fp, "."):
			end := strings.IndexAny(fp[1:], ".[")
			if end < 0 {
				end = len(fp) - 1
			}
			out, fp = append(out, step{stepProp, fp[1 : end+1]}), fp[end+1:]
		default:
			return nil
		}
	}
	return out
}

func sortedStructuralKeys(m map[string]schema.Structural) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
