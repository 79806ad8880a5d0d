package reference

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// side is one position in one object: its value, and whether it exists
// (every step resolved; a null property does not, semantics.md 2.1).
type side struct {
	v  interface{}
	ok bool
}

// pair is one position in the old and in the new object.
type pair struct {
	old, new side
}

func (p pair) both() bool {
	return p.old.ok && p.new.ok
}

// walker visits the schema and both objects together and collects
// violations.
type walker struct {
	out []Violation
	// track asks for exercised, the declarations whose rules were applied
	// (CheckExercised).
	track     bool
	exercised []Declaration
	// broken are the constraints the update breaks; via is the schema
	// path of the property below which one side has nothing, set while
	// the walk is below it (constraints.go).
	broken []Constraint
	via    string
	// formatsAsValues: every declaration compares formatted strings as
	// values (Checker.CompareFormatsAsValues).
	formatsAsValues bool
}

// visit checks the declarations of n at one position and descends.
// scopeBoth says whether the instance of n's scope (the nearest entry at or
// above n, semantics.md 2.2) exists before and after; isProp whether n is
// reached as an object property, which alone gets the presence rule (3.2).
func (w *walker) visit(n *node, p pair, at *field.Path, scopeBoth, isProp bool) {
	if n.mut != "" {
		if p.both() || (isProp && scopeBoth) {
			w.exercise(n, extMutability, n.mut)
		}
		w.checkValue(n, p, at)
		if isProp && scopeBoth {
			w.checkPresence(n, p, at)
		}
	}
	if len(n.update) > 0 {
		w.checkUpdate(n, p, at, scopeBoth, isProp)
	}
	if scopeBoth {
		w.checkKeys(n, p, at)
	}
	w.visitProperties(n, p, at, scopeBoth)
	// Entries exist before and after only inside a collection that does;
	// entries on one side only are new or gone, and nothing inside them is
	// constrained.
	if p.both() {
		w.visitItems(n, p, at)
		w.visitValues(n, p, at)
	}
}

// visitProperties descends into properties present on either side; one
// present on neither can break no rule. Properties are not entries, so the
// scope carries over.
func (w *walker) visitProperties(n *node, p pair, at *field.Path, scopeBoth bool) {
	for _, pr := range n.props {
		sub := pair{old: property(p.old, pr.name), new: property(p.new, pr.name)}
		if !sub.old.ok && !sub.new.ok {
			continue
		}
		if p.both() && !sub.both() {
			// Presence changes here: what is declared below comes or
			// goes with this property.
			saved := w.via
			w.via = pr.node.schemaPath
			w.visit(pr.node, sub, at.Child(pr.name), scopeBoth, true)
			w.via = saved
			continue
		}
		w.visit(pr.node, sub, at.Child(pr.name), scopeBoth, true)
	}
}

func property(s side, name string) side {
	obj, _ := s.v.(map[string]interface{})
	if !s.ok || obj == nil {
		return side{}
	}
	v := obj[name]
	return side{v: v, ok: v != nil}
}

// visitItems pairs list items by key (index, key tuple or value) and visits
// those that exist before and after, at their index in the new object.
// Duplicate keys cannot be stored; if they occur, the k-th new item with a
// key pairs with the k-th old one, so that Check(x, x) stays empty.
func (w *walker) visitItems(n *node, p pair, at *field.Path) {
	oldList, ok1 := p.old.v.([]interface{})
	newList, ok2 := p.new.v.([]interface{})
	if n.items == nil || !ok1 || !ok2 {
		return
	}
	index := map[string][]int{}
	for i, item := range oldList {
		k := listKey(n, item, i)
		index[k] = append(index[k], i)
	}
	seen := map[string]int{}
	for i, item := range newList {
		k := listKey(n, item, i)
		if olds := index[k]; seen[k] < len(olds) {
			sub := pair{old: side{v: oldList[olds[seen[k]]], ok: true}, new: side{v: item, ok: true}}
			w.visit(n.items, sub, at.Index(i), true, false)
		}
		seen[k]++
	}
}

// visitValues visits the map entries present before and after, by sorted
// key. A null value is an entry (semantics.md 2.1).
func (w *walker) visitValues(n *node, p pair, at *field.Path) {
	oldMap, ok1 := p.old.v.(map[string]interface{})
	newMap, ok2 := p.new.v.(map[string]interface{})
	if n.values == nil || !ok1 || !ok2 {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(newMap)) {
		if v, ok := oldMap[k]; ok {
			sub := pair{old: side{v: v, ok: true}, new: side{v: newMap[k], ok: true}}
			w.visit(n.values, sub, at.Key(k), true, false)
		}
	}
}
