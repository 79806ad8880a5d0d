package pairgen

import (
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// ref is a position inside an object that can be read and replaced: a key
// of a map or an index of a list.
type ref struct {
	m   map[string]interface{}
	key string
	l   []interface{}
	i   int
}

func (r ref) get() (interface{}, bool) {
	if r.m != nil {
		v, ok := r.m[r.key]
		return v, ok && v != nil
	}
	return r.l[r.i], r.l[r.i] != nil
}

func (r ref) set(v interface{}) {
	if r.m != nil {
		r.m[r.key] = v
		return
	}
	r.l[r.i] = v
}

// position is where an operator applies: the value's ref, its schema, and
// the schema of the container holding it (nil at the root).
type position struct {
	at     ref
	n      *gnode
	parent *gnode
	last   schemapath.Step
}

// reach walks path from the root held in holder[""]. Where a step is
// missing it fails, or with create it adds a generated container (adding
// an optional parent, an entry, a map key), then walks on.
func (g *Generator) reach(holder map[string]interface{}, path schemapath.Path, create bool) (position, bool) {
	p := position{at: ref{m: holder, key: ""}, n: g.root}
	for _, st := range path {
		next, ok := g.stepInto(p, st, create)
		if !ok {
			return p, false
		}
		p = next
	}
	return p, true
}

func (g *Generator) stepInto(p position, st schemapath.Step, create bool) (position, bool) {
	v, present := p.at.get()
	child := position{parent: p.n, last: st}
	switch st.Kind {
	case schemapath.Property:
		m, ok := v.(map[string]interface{})
		if !present || !ok {
			if !create {
				return p, false
			}
			m = g.object(p.n)
			p.at.set(m)
		}
		child.at, child.n = ref{m: m, key: st.Name}, p.n.propIdx[st.Name]
	case schemapath.Items:
		l, ok := v.([]interface{})
		if !present || !ok || len(l) == 0 {
			if !create {
				return p, false
			}
			l = g.addUnique(p.n, l, g.value(p.n.items), len(l))
			p.at.set(l)
			if len(l) == 0 {
				return p, false
			}
		}
		child.at, child.n = ref{l: l, i: g.rnd.Intn(len(l))}, p.n.items
	case schemapath.Values:
		m, ok := v.(map[string]interface{})
		if !present || !ok || len(m) == 0 {
			if !create {
				return p, false
			}
			if !ok {
				m = map[string]interface{}{}
			}
			m[g.mapKey(0)] = g.value(p.n.values)
			p.at.set(m)
		}
		keys := slices.Sorted(maps.Keys(m))
		child.at, child.n = ref{m: m, key: keys[g.rnd.Intn(len(keys))]}, p.n.values
	}
	return child, child.n != nil
}

// mutate applies one operator to obj, which the caller owns, and returns
// the result. Operators aim at a target (a declared node) or its ancestors
// most of the time, and at any node otherwise.
func (g *Generator) mutate(obj map[string]interface{}) map[string]interface{} {
	holder := map[string]interface{}{"": obj}
	for try := 0; try < 4; try++ {
		if path := g.pickPath(); g.apply(holder, path) {
			// A change inside an item can give it the key of another
			// item.
			dedupeAlong(holder[""], g.root, path)
			break
		}
	}
	out, _ := holder[""].(map[string]interface{})
	if out == nil {
		out = map[string]interface{}{}
	}
	return out
}

// pickPath chooses a target, sometimes cut to one of its ancestors so that
// optional parents are added and removed.
func (g *Generator) pickPath() schemapath.Path {
	paths := g.all
	if len(g.targets) > 0 && g.rnd.Intn(4) > 0 {
		paths = g.targets
	}
	path := paths[g.rnd.Intn(len(paths))]
	if len(path) > 1 && g.rnd.Intn(4) == 0 {
		path = path[:1+g.rnd.Intn(len(path)-1)]
	}
	return path
}

// apply picks an operator for the node at path and applies it; false when
// it does not apply (nothing to remove, say).
func (g *Generator) apply(holder map[string]interface{}, path schemapath.Path) bool {
	n := g.root.at(path)
	if n == nil {
		return false
	}
	last := len(path) - 1
	switch {
	case len(n.unions) > 0 && g.rnd.Intn(2) == 0:
		return g.unionOp(holder, path)
	case last >= 0 && path[last].Kind != schemapath.Property && g.rnd.Intn(2) == 0:
		return g.collectionOp(holder, path[:last])
	case (n.kind == kindList || n.kind == kindMap) && g.rnd.Intn(10) < 7:
		return g.collectionOp(holder, path)
	}
	return g.valueOp(holder, path)
}

// Value operators.
const (
	opRegenerate = iota // change the value, or add it (and missing parents)
	opPerturb           // change something below
	opRemove            // remove the field or map entry
	opNull              // send null
	opFloat             // send the integers below as floats (1 as 1.0)
	numValueOps
)

func (g *Generator) valueOp(holder map[string]interface{}, path schemapath.Path) bool {
	op := g.rnd.Intn(numValueOps)
	p, ok := g.reach(holder, path, op == opRegenerate || op == opPerturb || g.rnd.Intn(2) == 0)
	if !ok {
		return false
	}
	v, present := p.at.get()
	switch {
	case op == opRegenerate || !present:
		p.at.set(g.value(p.n))
	case op == opPerturb:
		p.at.set(g.perturb(v, p.n))
	case op == opRemove:
		return g.remove(p)
	case op == opNull && p.parent != nil && p.at.m != nil && (p.n.s.Nullable || !p.parent.required[p.last.Name]):
		p.at.set(nil)
	case op == opFloat:
		p.at.set(floatify(v))
	default:
		return false
	}
	return true
}

// remove deletes an optional property or a map entry; list items are
// removed by the list operators.
func (g *Generator) remove(p position) bool {
	if p.at.m == nil || p.parent == nil {
		return false
	}
	if p.last.Kind == schemapath.Property && p.parent.required[p.last.Name] {
		return false // the object would be invalid; removing its parent is not
	}
	if vv := p.parent.s.ValueValidation; p.last.Kind == schemapath.Property && vv != nil && vv.MinProperties != nil && int64(len(p.at.m)) <= *vv.MinProperties {
		return false // the same
	}
	delete(p.at.m, p.at.key)
	return true
}

// floatify sends every integer below v as a float with the same value, as
// a client writing 1.0 does.
func floatify(v interface{}) interface{} {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case map[string]interface{}:
		for k, e := range x {
			x[k] = floatify(e)
		}
	case []interface{}:
		for i, e := range x {
			x[i] = floatify(e)
		}
	}
	return v
}

// perturb makes one small change below v.
func (g *Generator) perturb(v interface{}, n *gnode) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		if n.kind == kindMap {
			return g.mapOp(x, n)
		}
		if n.kind == kindObject && len(n.props) > 0 {
			return g.perturbObject(x, n)
		}
	case []interface{}:
		if n.kind == kindList {
			return g.listOp(x, n)
		}
	}
	return g.other(v, n)
}

func (g *Generator) perturbObject(m map[string]interface{}, n *gnode) interface{} {
	p := n.props[g.rnd.Intn(len(n.props))]
	v, present := m[p.name]
	switch {
	case !present || v == nil:
		m[p.name] = g.value(p.node)
	case !n.required[p.name] && g.rnd.Intn(3) == 0:
		delete(m, p.name)
	default:
		m[p.name] = g.perturb(v, p.node)
	}
	return m
}

// other returns a value of n different from v when the schema allows one.
func (g *Generator) other(v interface{}, n *gnode) interface{} {
	for try := 0; try < 4; try++ {
		w := g.value(n)
		if jsonvalue.Canonical(w) != jsonvalue.Canonical(v) {
			return w
		}
	}
	return v
}
