package pairgen

import (
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// avoidAfter is how many refusals below an optional property make the
// generator leave it out.
const avoidAfter = 2

// Refused learns from a pair the apiserver refused for the field at the
// apiserver field path f (spec.a[0].b): the deepest optional property on
// the way that no target needs is left out of later objects, once it has
// been to blame avoidAfter times. Some refusals no schema keyword
// foretells, a rule on create that ties two fields together say; leaving
// out the property that holds them keeps later pairs judged. It changes
// only later pairs, in the order they are made, so runs stay repeatable.
func (g *Generator) Refused(f string) {
	var blame *gnode
	g.walkField(f, func(parent, child *gnode, prop string) {
		if prop != "" && !parent.required[prop] && !child.aimed {
			blame = child
		}
	})
	if blame != nil {
		g.credit(blame)
	}
}

// walkField follows an apiserver field path through the schema, calling
// visit at each step with the property name ("" for an item or a map
// value), and returns the node it ends on; nil when it leaves the schema.
func (g *Generator) walkField(f string, visit func(parent, child *gnode, prop string)) *gnode {
	n := g.root
	for _, st := range fieldSteps(f) {
		var next *gnode
		prop := ""
		switch {
		case n.kind == kindMap:
			next = n.values
		case st.index:
			next = n.items
		default:
			next, prop = n.propIdx[st.name], st.name
		}
		if next == nil {
			return nil
		}
		if visit != nil {
			visit(n, next, prop)
		}
		n = next
	}
	return n
}

type fieldStep struct {
	name  string
	index bool // [i] or [key]
}

// fieldSteps reads an apiserver field path: names between dots, and
// indices or keys in brackets, which may hold dots.
func fieldSteps(f string) []fieldStep {
	var out []fieldStep
	for f != "" {
		switch {
		case f[0] == '.':
			f = f[1:]
		case f[0] == '[':
			end := strings.IndexByte(f, ']')
			if end < 0 {
				return out
			}
			out, f = append(out, fieldStep{index: true}), f[end+1:]
		default:
			end := strings.IndexAny(f, ".[")
			if end < 0 {
				end = len(f)
			}
			out, f = append(out, fieldStep{name: f[:end]}), f[end:]
		}
	}
	return out
}

// RepairRounds bounds how often a refused pair is mended.
const RepairRounds = 16

// Mend is a refused pair mended (Repair), and the property the mend
// dropped, if it did.
type Mend struct {
	Old, New map[string]interface{}
	dropped  *gnode
}

// Repair mends a pair the apiserver refused for the field at f of the
// object named by which ("old" or "new"). A refused old object is mended
// where the apiserver points, by turns: every optional property of the
// object at f is set; a list or map at f is cut to its fewest entries, or
// else one of the object's optional properties is dropped; the value at f is
// generated anew with every optional property an even chance (the whole
// object when f does not resolve); the field at f is dropped, where its
// parent allows. Then a new object is derived from it
// again. A refused new object is, by turns, derived anew from old or
// mended the same way. Schema keywords
// cannot foretell a rule on create that ties fields together ("exactly
// one of a and b", "b is required when a is set"), and most such rules
// are met by one of the three. The mend keeps the property it dropped, if
// that was the mend: when the pair then passes (Passed), credit blames
// it. The caller owns the pair.
func (g *Generator) Repair(old, new map[string]interface{}, which, f string, round int) Mend {
	var dropped *gnode
	switch {
	case which == "old":
		old, dropped = g.mend(old, f, round/2)
		return Mend{old, g.derive(old), dropped}
	case round%2 == 1:
		new, dropped = g.mend(new, f, round/2)
		return Mend{old, new, dropped}
	}
	return Mend{Old: old, New: g.derive(old)}
}

// Passed tells g that the pair of m, mended, passed where it was refused:
// the property the mend dropped, if any, is to blame (credit).
func (g *Generator) Passed(m Mend) {
	if m.dropped != nil {
		g.credit(m.dropped)
	}
}

// mend changes obj where the apiserver's error at f points, in the way
// turn picks (see Repair), and returns it with the property it dropped,
// if any.
func (g *Generator) mend(obj map[string]interface{}, f string, turn int) (map[string]interface{}, *gnode) {
	holder := map[string]interface{}{"": obj}
	p, ok := g.reachField(holder, f)
	var dropped *gnode
	switch {
	case !ok:
		return g.fresh(g.root).(map[string]interface{}), nil
	case turn%4 == 0 && g.fillOptional(p):
	case turn%4 == 1 && g.shortest(p):
	case turn%4 == 3 && g.remove(p):
		// A value no draw makes valid: the field goes, where it may.
		dropped = p.n
	case turn%4 == 1:
		if dropped = g.dropOptional(p); dropped == nil {
			p.at.set(g.fresh(p.n))
		}
	default:
		p.at.set(g.fresh(p.n))
	}
	dedupeAll(holder[""], g.root)
	out, _ := holder[""].(map[string]interface{})
	if out == nil {
		out = g.rootValue()
	}
	return out, dropped
}

// credit blames an optional property whose removal let a refused object
// pass, as Refused does.
func (g *Generator) credit(n *gnode) {
	n.refusals++
	if n.refusals >= avoidAfter && !n.aimed || n.refusals >= avoidAimedAfter {
		n.avoid = true
	}
}

// avoidAimedAfter is how many times dropping a property on the way to a
// target must have mended a refused object before the generator leaves
// it out of its draws too (mutations still add it): a rule on create
// that forbids it ("claims are not supported in v2") would otherwise set
// most pairs aside.
const avoidAimedAfter = 8

// shortest cuts the list or map at p to as few entries as its bounds
// allow, when that is fewer than it has: a rule on every entry then has
// fewer to fail on.
func (g *Generator) shortest(p position) bool {
	v, _ := p.at.get()
	lo, _ := p.n.sizeBounds()
	switch x := v.(type) {
	case []interface{}:
		if p.n.kind == kindList && len(x) > lo {
			p.at.set(x[:lo])
			return true
		}
	case map[string]interface{}:
		if p.n.kind == kindMap && len(x) > lo {
			for _, k := range slices.Sorted(maps.Keys(x))[lo:] {
				delete(x, k)
			}
			return true
		}
	}
	return false
}

// fillOptional sets every optional property missing from the object at
// p; false when none is missing.
func (g *Generator) fillOptional(p position) bool {
	v, _ := p.at.get()
	m, ok := v.(map[string]interface{})
	if !ok || p.n.kind != kindObject {
		return false
	}
	filled := false
	for _, pr := range p.n.props {
		if _, set := m[pr.name]; !set && !pr.node.avoid {
			g.size = 0
			m[pr.name] = g.value(pr.node)
			filled = true
		}
	}
	return filled
}

// fresh generates a value of n in which aimed properties are drawn like
// the others.
func (g *Generator) fresh(n *gnode) interface{} {
	g.size, g.even = 0, true
	defer func() { g.even = false }()
	return g.value(n)
}

// dropOptional removes one optional property, present and drawn at
// random, from the object at p, and returns its schema; nil when it has
// none.
func (g *Generator) dropOptional(p position) *gnode {
	v, _ := p.at.get()
	m, ok := v.(map[string]interface{})
	if !ok || p.n.kind != kindObject {
		return nil
	}
	var optional []gprop
	for _, pr := range p.n.props {
		if _, set := m[pr.name]; set && !p.n.required[pr.name] {
			optional = append(optional, pr)
		}
	}
	if len(optional) == 0 {
		return nil
	}
	pr := optional[g.rnd.Intn(len(optional))]
	delete(m, pr.name)
	return pr.node
}

// reachField follows an apiserver field path in the object held in
// holder[""]; false when a step is missing or leaves the schema.
func (g *Generator) reachField(holder map[string]interface{}, f string) (position, bool) {
	p := position{at: ref{m: holder, key: ""}, n: g.root}
	steps := fieldSteps(f)
	if len(steps) == 0 {
		return p, false
	}
	for _, fs := range steps {
		v, present := p.at.get()
		if !present {
			return p, false
		}
		child := position{parent: p.n}
		switch x := v.(type) {
		case map[string]interface{}:
			if fs.index || p.n.kind == kindMap {
				return p, false // keys in brackets are not told apart here
			}
			child.at, child.n, child.last = ref{m: x, key: fs.name}, p.n.propIdx[fs.name], schemapath.Prop(fs.name)
		case []interface{}:
			return p, false
		default:
			return p, false
		}
		if child.n == nil {
			return p, false
		}
		p = child
	}
	return p, true
}

// readAs maps what the apiserver's CEL says when a rule on create reads a
// string as another type to the samples of the format that type reads:
// rules that call duration() or url() on a string without a format.
var readAs = []struct{ says, format string }{
	{"to 'google.protobuf.Duration'", "duration"},
	{"URL parse error", "uri"},
	{"to 'google.protobuf.Timestamp'", "date-time"},
}

// Hint learns from the message of a refusal for the string at field path
// f that a rule reads it as a duration, URL or timestamp, and draws the
// string from that format's samples from then on.
func (g *Generator) Hint(f, message string) {
	n := g.walkField(f, nil)
	if n == nil || n.kind != kindScalar || n.s.Type != "string" {
		return
	}
	for _, r := range readAs {
		if strings.Contains(message, r.says) {
			n.pool = make([]interface{}, 0, len(formatSamples[r.format]))
			for _, s := range formatSamples[r.format] {
				n.pool = append(n.pool, s)
			}
			return
		}
	}
}
