package pairgen

import (
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// collectionOp applies a list or map operator to the collection at path,
// adding the collection (and its parents) when it is missing.
func (g *Generator) collectionOp(holder map[string]interface{}, path schemapath.Path) bool {
	p, ok := g.reach(holder, path, g.rnd.Intn(2) == 0)
	if !ok {
		return false
	}
	v, _ := p.at.get()
	switch p.n.kind {
	case kindList:
		l, _ := v.([]interface{})
		p.at.set(g.listOp(l, p.n))
	case kindMap:
		m, ok := v.(map[string]interface{})
		if !ok {
			m = map[string]interface{}{}
		}
		p.at.set(g.mapOp(m, p.n))
	default:
		return false
	}
	return true
}

// List operators.
const (
	opAppend = iota
	opPrepend
	opInsert
	opTruncate
	opRemoveAt
	opReorder
	opChangeItem // change a value nested in an item
	opRekey      // give an item another key: new key fields, another set value
	opClear
	numListOps
)

// listOp returns l changed by one operator, keeping set items and list-map
// keys unique.
func (g *Generator) listOp(l []interface{}, n *gnode) []interface{} {
	l = append([]interface{}{}, l...)
	op := g.rnd.Intn(numListOps)
	switch {
	case (op == opAppend || op == opPrepend || op == opInsert) && !n.canGrow(len(l)),
		(op == opTruncate || op == opRemoveAt || op == opClear) && !n.canShrink(len(l)):
		op = opChangeItem // stay within minItems and maxItems
	}
	switch {
	case len(l) == 0 && !n.canGrow(0):
		return l
	case op == opAppend || len(l) == 0:
		l = g.addUnique(n, l, g.value(n.items), len(l))
	case op == opPrepend:
		l = g.addUnique(n, l, g.value(n.items), 0)
	case op == opInsert:
		l = g.addUnique(n, l, g.value(n.items), g.rnd.Intn(len(l)+1))
	case op == opTruncate:
		lo, _ := n.sizeBounds()
		l = l[:max(lo, g.rnd.Intn(len(l)))]
	case op == opRemoveAt:
		i := g.rnd.Intn(len(l))
		l = append(l[:i], l[i+1:]...)
	case op == opReorder:
		g.reorder(l)
	case op == opChangeItem:
		i := g.rnd.Intn(len(l))
		l[i] = g.perturb(l[i], n.items)
	case op == opRekey:
		i := g.rnd.Intn(len(l))
		l[i] = g.rekey(l[i], n)
	case op == opClear && n.canShrink(0):
		l = l[:0]
	}
	return dedupe(n, l)
}

// reorder swaps two items, reverses or rotates the list.
func (g *Generator) reorder(l []interface{}) {
	switch g.rnd.Intn(3) {
	case 0:
		i, j := g.rnd.Intn(len(l)), g.rnd.Intn(len(l))
		l[i], l[j] = l[j], l[i]
	case 1:
		for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
			l[i], l[j] = l[j], l[i]
		}
	default:
		if len(l) > 1 {
			first := l[0]
			copy(l, l[1:])
			l[len(l)-1] = first
		}
	}
}

// rekey changes what identifies an item: the key fields of a list-map item
// (its other fields stay), or the whole item of other lists.
func (g *Generator) rekey(item interface{}, n *gnode) interface{} {
	obj, ok := item.(map[string]interface{})
	if n.listType != "map" || !ok {
		return g.other(item, n.items)
	}
	k := n.mapKeys[g.rnd.Intn(len(n.mapKeys))]
	if c := n.items.propIdx[k]; c != nil {
		obj[k] = g.other(obj[k], c)
	}
	return obj
}

// Map operators.
const (
	opAddKey = iota
	opRemoveKey
	opRenameKey
	opChangeValue
	opReplaceValue
	opNullValue
	opClearMap
	numMapOps
)

func (g *Generator) mapOp(m map[string]interface{}, n *gnode) map[string]interface{} {
	keys := slices.Sorted(maps.Keys(m))
	op := g.rnd.Intn(numMapOps)
	switch {
	case len(keys) == 0:
		op = opAddKey
	case op == opAddKey && !n.canGrow(len(keys)),
		(op == opRemoveKey || op == opClearMap) && !n.canShrink(len(keys)):
		op = opChangeValue // stay within minProperties and maxProperties
	}
	var k string
	if len(keys) > 0 {
		k = keys[g.rnd.Intn(len(keys))]
	}
	switch op {
	case opAddKey:
		m[g.mapKey(0)] = g.value(n.values)
	case opRemoveKey:
		delete(m, k)
	case opRenameKey:
		v := m[k]
		delete(m, k)
		m[g.mapKey(0)] = v
	case opChangeValue:
		m[k] = g.perturb(m[k], n.values)
	case opReplaceValue:
		m[k] = g.value(n.values)
	case opNullValue:
		m[k] = nil
	case opClearMap:
		if n.canShrink(0) {
			return map[string]interface{}{}
		}
	}
	return m
}
