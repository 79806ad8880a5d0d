package verify

import (
	"fmt"
	"math/rand"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// generator builds schema-valid values and mutates them, for differential
// testing. Values stay small (at most three entries per collection, strings
// from a three-letter alphabet) so that random updates often keep, remove and
// re-add the same keys.
type generator struct {
	rnd *rand.Rand
}

func newGenerator(seed int64) *generator { return &generator{rnd: rand.New(rand.NewSource(seed))} }

var alphabet = []string{"a", "b", "c"}

// value generates a value of schema s.
func (g *generator) value(s *schema.Structural) interface{} {
	switch {
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
		m := map[string]interface{}{}
		for i := g.rnd.Intn(3); i > 0; i-- {
			m[g.pick(alphabet)] = g.value(s.AdditionalProperties.Structural)
		}
		return m
	case s.Type == "object":
		m := map[string]interface{}{}
		for _, name := range propertyNames(s) {
			p := s.Properties[name]
			if isRequired(s, name) || g.rnd.Intn(3) > 0 {
				m[name] = g.value(&p)
			}
		}
		return m
	case s.Type == "array":
		var l []interface{}
		for i := g.rnd.Intn(4); i > 0; i-- {
			l = g.appendUnique(s, l)
		}
		if l == nil {
			l = []interface{}{}
		}
		return l
	}
	return g.scalar(s)
}

func (g *generator) scalar(s *schema.Structural) interface{} {
	if s.ValueValidation != nil && len(s.ValueValidation.Enum) > 0 {
		return s.ValueValidation.Enum[g.rnd.Intn(len(s.ValueValidation.Enum))].Object
	}
	switch s.Type {
	case "integer":
		return int64(g.rnd.Intn(3))
	case "number":
		return []interface{}{int64(1), 1.5, int64(2)}[g.rnd.Intn(3)]
	case "boolean":
		return g.rnd.Intn(2) == 0
	}
	if s.ValueValidation != nil {
		// The apiserver's CEL decodes some formats; values must parse.
		switch s.ValueValidation.Format {
		case "byte":
			return g.pick([]string{"YQ==", "Yg==", "Yw=="})
		case "date-time":
			return g.pick([]string{"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"})
		case "date":
			return g.pick([]string{"2026-01-01", "2026-01-02"})
		case "duration":
			return g.pick([]string{"1s", "2m", "3h"})
		}
	}
	return g.pick(alphabet)
}

func (g *generator) pick(from []string) string { return from[g.rnd.Intn(len(from))] }

// appendUnique appends a generated item, keeping set items and list-map keys
// unique as the apiserver requires; it gives up after a few tries.
func (g *generator) appendUnique(s *schema.Structural, l []interface{}) []interface{} {
	for try := 0; try < 5; try++ {
		item := g.value(s.Items)
		if !g.duplicates(s, l, item) {
			return append(l, item)
		}
	}
	return l
}

func (g *generator) duplicates(s *schema.Structural, l []interface{}, item interface{}) bool {
	if s.XListType == nil || *s.XListType == "atomic" {
		return false
	}
	for _, other := range l {
		if *s.XListType == "set" && fmt.Sprint(other) == fmt.Sprint(item) {
			return true
		}
		if *s.XListType == "map" && sameListMapKey(s.XListMapKeys, other, item) {
			return true
		}
	}
	return false
}

func sameListMapKey(keys []string, a, b interface{}) bool {
	am, _ := a.(map[string]interface{})
	bm, _ := b.(map[string]interface{})
	for _, k := range keys {
		if fmt.Sprint(am[k]) != fmt.Sprint(bm[k]) {
			return false
		}
	}
	return true
}

func isRequired(s *schema.Structural, name string) bool {
	if s.ValueValidation == nil {
		return false
	}
	for _, r := range s.ValueValidation.Required {
		if r == name {
			return true
		}
	}
	return false
}

// mutate returns a changed deep copy of v: one random edit somewhere below.
func (g *generator) mutate(v interface{}, s *schema.Structural) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		return g.mutateMap(x, s)
	case []interface{}:
		return g.mutateList(x, s)
	}
	return g.scalar(s)
}

func (g *generator) mutateMap(m map[string]interface{}, s *schema.Structural) interface{} {
	out := copyMap(m)
	isMap := s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil
	var names []string
	if isMap {
		names = alphabet
	} else {
		names = propertyNames(s)
	}
	if len(names) == 0 {
		return out
	}
	name := names[g.rnd.Intn(len(names))]
	child := childSchema(s, name)
	switch _, present := out[name]; {
	case present && g.rnd.Intn(3) == 0 && !isRequired(s, name):
		delete(out, name)
	case present:
		out[name] = g.mutate(out[name], child)
	default:
		out[name] = g.value(child)
	}
	return out
}

// propertyNames are the property names of s, sorted: drawing from a Go map
// in its iteration order would make the values depend on more than the seed.
func propertyNames(s *schema.Structural) []string {
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func childSchema(s *schema.Structural, name string) *schema.Structural {
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		return s.AdditionalProperties.Structural
	}
	p := s.Properties[name]
	return &p
}

func (g *generator) mutateList(l []interface{}, s *schema.Structural) interface{} {
	out := append([]interface{}{}, l...)
	switch op := g.rnd.Intn(4); {
	case op == 0 && len(out) > 1:
		i, j := g.rnd.Intn(len(out)), g.rnd.Intn(len(out))
		out[i], out[j] = out[j], out[i]
	case op == 1 && len(out) > 0:
		i := g.rnd.Intn(len(out))
		out = append(out[:i], out[i+1:]...)
	case op == 2 && len(out) > 0 && (s.XListType == nil || *s.XListType != "set"):
		i := g.rnd.Intn(len(out))
		changed := g.mutate(out[i], s.Items)
		rest := append(append([]interface{}{}, out[:i]...), out[i+1:]...)
		if !g.duplicates(s, rest, changed) {
			out[i] = changed
		}
	default:
		out = g.appendUnique(s, out)
	}
	return out
}

func copyMap(m map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
