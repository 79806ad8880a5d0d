package verify

import (
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// PairGenerator generates updates of a custom resource for differential
// tests outside this package: an old object and a changed copy of it.
type PairGenerator struct {
	s *schema.Structural
	g *generator
}

// NewPairGenerator returns a generator of updates of objects of schema s.
// The sequence of pairs depends only on s and seed.
func NewPairGenerator(s *schema.Structural, seed int64) *PairGenerator {
	return &PairGenerator{s: s, g: newGenerator(seed)}
}

// Next returns the next update: old and new are raw objects, before pruning
// and defaulting, and share no data, so callers may change them. new differs
// from old by one to three random edits.
func (p *PairGenerator) Next() (old, new map[string]interface{}) {
	old, _ = p.g.value(p.s).(map[string]interface{})
	new = old
	for n := 1 + p.g.rnd.Intn(3); n > 0; n-- {
		new, _ = p.g.mutate(new, p.s).(map[string]interface{})
	}
	return runtime.DeepCopyJSON(old), runtime.DeepCopyJSON(new)
}
