package pairgen

import (
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// The schedule makes coverage a matter of construction, not of luck: every
// scheduleEvery-th pair is aimed, in turn, at one declared node or at one
// set or list-map at or below a declared node, at any depth. A random
// walk down the schema reaches a list-map nested in the items of an atomic
// list inside a declared node too rarely to reorder it (JobSet's
// volumeClaimPolicies[].templates[].status.conditions was never reordered
// in 60,000 pairs); the schedule reorders it once per round.

// scheduleEvery is the period of scheduled pairs; the others stay random,
// so the schedule costs a quarter of the pairs.
const scheduleEvery = 4

// aim is one entry of the schedule.
type aim struct {
	path    schemapath.Path
	reorder bool // reorder the set or list-map at path; else any edit of it
}

// scheduleOf lists, in schema walk order, each target once, then the sets
// and list-maps at or below it.
func scheduleOf(root *gnode, targets []schemapath.Path) []aim {
	var out []aim
	seen := map[string]bool{}
	add := func(a aim) {
		k := a.path.String()
		if a.reorder {
			k += " reorder"
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	for _, t := range targets {
		add(aim{path: t})
		for _, c := range root.at(t).orderedCollections(t) {
			add(aim{path: c, reorder: true})
		}
	}
	return out
}

// orderedCollections lists the paths of the sets and list-maps at or below
// n: lists whose items have an identity apart from their position, so that
// a reorder alone is an update the rules must judge.
func (n *gnode) orderedCollections(path schemapath.Path) []schemapath.Path {
	var out []schemapath.Path
	if n.kind == kindList && (n.listType == "map" || n.listType == "set") {
		out = append(out, path)
	}
	for _, p := range n.props {
		out = append(out, p.node.orderedCollections(path.Child(schemapath.Prop(p.name)))...)
	}
	if n.items != nil {
		out = append(out, n.items.orderedCollections(path.Child(schemapath.Step{Kind: schemapath.Items}))...)
	}
	if n.values != nil {
		out = append(out, n.values.orderedCollections(path.Child(schemapath.Step{Kind: schemapath.Values}))...)
	}
	return out
}

// scheduledPair makes the pair of one aim; false when it cannot (a list
// bounded to one item, say), and the caller makes a random pair instead.
func (g *Generator) scheduledPair(a aim) (old, new map[string]interface{}, ok bool) {
	old = g.rootValue()
	if a.reorder {
		return g.reorderPair(old, a.path)
	}
	for try := 0; try < 4; try++ {
		holder := map[string]interface{}{"": jsonvalue.CopyMap(old)}
		g.size = 0
		if g.apply(holder, a.path) {
			new, _ = holder[""].(map[string]interface{})
			if new == nil {
				new = map[string]interface{}{}
			}
			return old, dedupeAlong(new, g.root, a.path).(map[string]interface{}), true
		}
	}
	return nil, nil, false
}

// reorderPair gives old, at path, a list of at least two items (adding
// parents and items as needed), then returns it with that list rotated
// as the old object and unchanged as the new one: the update only moves
// the items.
func (g *Generator) reorderPair(obj map[string]interface{}, path schemapath.Path) (old, new map[string]interface{}, ok bool) {
	holder := map[string]interface{}{"": obj}
	p, ok := g.reach(holder, path, true)
	if !ok || p.n.kind != kindList {
		return nil, nil, false
	}
	v, _ := p.at.get()
	l, _ := v.([]interface{})
	for try := 0; len(l) < 2 && try < 8 && p.n.canGrow(len(l)); try++ {
		l = g.addUnique(p.n, l, g.value(p.n.items), len(l))
	}
	if len(l) < 2 {
		return nil, nil, false
	}
	p.at.set(l)
	old, _ = holder[""].(map[string]interface{})
	new = jsonvalue.CopyMap(old)
	rotated := append(append([]interface{}{}, l[1:]...), l[0])
	p.at.set(rotated)
	return old, new, true
}
