package reference

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkValue is semantics.md 3.1: a position of N that exists before and
// after keeps a strictly equal value.
func (w *walker) checkValue(n *node, p pair, at *field.Path) {
	if p.both() && !equalAs(n, p.old.v, p.new.v, w.asValues(n)) {
		w.add(at, n, kindValue, unreadableDetail(n, p, valueDetail(n.mut, p.old.v, p.new.v)))
		w.broke(n, extMutability, n.mut, noModify)
	}
}

// checkPresence is semantics.md 3.2, called only where the scope exists
// before and after, so a position missing on one side means N, or a
// property between N and its scope, was added or removed.
func (w *walker) checkPresence(n *node, p pair, at *field.Path) {
	removed, added := w.presenceChange(n, p)
	if (removed && n.mut != removeOnly) || (added && n.mut != addOnly) {
		w.add(at, n, kindPresence, presenceDetail(n.mut, added))
		if added {
			w.broke(n, extMutability, n.mut, noSet)
		} else {
			w.broke(n, extMutability, n.mut, noUnset)
		}
	}
}

// keyDeclaration is one key constraint on a collection: its own
// x-kubernetes-key-mutability, NoAddItem or NoRemoveItem of its own
// x-kubernetes-update, or AddOnly/RemoveOnly on its items or
// additionalProperties schema (semantics.md 3.3), reported at that schema.
type keyDeclaration struct {
	ext, value string
	by         *node
}

func keyDeclarations(n *node) []keyDeclaration {
	var out []keyDeclaration
	if n.keyMut != "" {
		out = append(out, keyDeclaration{extKeyMutability, n.keyMut, n})
	}
	for _, sub := range []*node{n.items, n.values} {
		if sub != nil && narrowing(sub.mut) {
			out = append(out, keyDeclaration{extMutability, sub.mut, sub})
		}
	}
	for _, c := range []string{noAddItem, noRemoveItem} {
		if n.has(c) {
			out = append(out, keyDeclaration{extUpdate, c, n})
		}
	}
	return out
}

// checkKeys is semantics.md 4, called only where the scope of the
// collection exists before and after.
func (w *walker) checkKeys(n *node, p pair, at *field.Path) {
	decls := keyDeclarations(n)
	if len(decls) == 0 {
		return
	}
	before, after := keysOf(n, p.old), keysOf(n, p.new)
	removed, added := before.missing(after), after.missing(before)
	for _, d := range decls {
		w.exercise(d.by, d.ext, d.value)
		r, a := deniedKeys(d.value, removed, added)
		if len(r) == 0 && len(a) == 0 {
			continue
		}
		detail := keysDetail(d.value, r, a)
		if d.ext == extUpdate {
			detail = updateKeysDetail(d.value, r, a)
		}
		w.add(at, d.by, kindKeys, detail)
		if len(r) > 0 {
			w.broke(d.by, d.ext, d.value, noRemoveItem)
		}
		if len(a) > 0 {
			w.broke(d.by, d.ext, d.value, noAddItem)
		}
	}
}

// deniedKeys narrows the keys a collection lost and gained to those a key
// declaration denies (semantics.md 4, 9.2).
func deniedKeys(value string, removed, added []string) (r, a []string) {
	switch value {
	case removeOnly, noAddItem:
		return nil, added // keys after ⊆ keys before
	case addOnly, noRemoveItem:
		return removed, nil // keys before ⊆ keys after
	}
	return removed, added
}

// add records a violation at the instance path at; nil is the root (a
// union's node), written "".
func (w *walker) add(at *field.Path, n *node, kind, detail string) {
	path := ""
	if at != nil {
		path = at.String()
	}
	w.out = append(w.out, Violation{Path: path, Declaration: n.schemaPath, Kind: kind, Detail: detail})
}
