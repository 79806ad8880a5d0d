package reference

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/decl"
)

// extUpdate holds the finer constraints of semantics.md 9, a list of names.
const extUpdate = decl.ExtUpdate

// The five constraints of x-kubernetes-update (semantics.md 9.2).
const (
	noSet        = "NoSet"
	noUnset      = "NoUnset"
	noModify     = "NoModify"
	noAddItem    = "NoAddItem"
	noRemoveItem = "NoRemoveItem"
)

// updateConstraints is also the order in which a node's constraints are
// kept and listed, so that [NoModify, NoUnset] and [NoUnset, NoModify] are
// one declaration to every report.
var updateConstraints = []string{noSet, noUnset, noModify, noAddItem, noRemoveItem}

// validUpdate returns the known constraint names of an x-kubernetes-update
// value, each once, in updateConstraints order; nil when it is not a list.
// Names are case-sensitive.
func validUpdate(v interface{}) []string {
	list, _ := v.([]interface{})
	var out []string
	for _, name := range updateConstraints {
		for _, e := range list {
			if e == name {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

func isConstraint(name string) bool {
	for _, c := range updateConstraints {
		if name == c {
			return true
		}
	}
	return false
}

// has reports whether n declares the constraint c.
func (n *node) has(c string) bool {
	for _, u := range n.update {
		if u == c {
			return true
		}
	}
	return false
}

// checkUpdateDeclaration records every rule of semantics.md 9.2 that the
// x-kubernetes-update value v of the node raw breaks. As for the KEP
// extensions, a misplaced declaration is not also checked against its kind
// of node: the fix is to remove it.
func (p *parser) checkUpdateDeclaration(v interface{}, path *field.Path, at where, raw map[string]interface{}) {
	p.errs = append(p.errs, updateValueErrors(v, path)...)
	if err := misplaced(path, at); err != nil {
		p.errs = append(p.errs, err)
		return
	}
	list, _ := v.([]interface{})
	seen := map[string]bool{}
	for i, e := range list {
		name, _ := e.(string)
		if seen[name] {
			continue
		}
		seen[name] = true
		if err := constraintOnWrongNode(path.Index(i), name, at, raw); err != nil {
			p.errs = append(p.errs, err)
		}
	}
}

// updateValueErrors is 9.2.1: a non-empty list of distinct names of the
// five. Each bad element is named by its index.
func updateValueErrors(v interface{}, path *field.Path) field.ErrorList {
	list, ok := v.([]interface{})
	if !ok {
		return field.ErrorList{errUpdateNotList(path, v)}
	}
	if len(list) == 0 {
		return field.ErrorList{errUpdateEmpty(path)}
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, e := range list {
		name, _ := e.(string)
		switch {
		case !isConstraint(name):
			errs = append(errs, errUnsupportedConstraint(path.Index(i), e))
		case seen[name]:
			errs = append(errs, errDuplicateConstraint(path.Index(i), name))
		}
		seen[name] = true
	}
	return errs
}

// constraintOnWrongNode is 9.2.2 and 9.2.3. NoModify fits every node that
// may carry a declaration at all, collections included.
func constraintOnWrongNode(path *field.Path, name string, at where, raw map[string]interface{}) *field.Error {
	switch name {
	case noSet, noUnset:
		if at.entry {
			return errPresenceOnEntry(path)
		}
	case noAddItem, noRemoveItem:
		if !isArray(raw) && !isMapSchema(raw) {
			return errItemsOnNonCollection(path)
		}
	}
	return nil
}

// checkUpdate applies the constraints of n that speak of its own value and
// presence (semantics.md 9.2); NoAddItem and NoRemoveItem are key rules and
// run with the others in checkKeys. Arguments are those of visit.
func (w *walker) checkUpdate(n *node, p pair, at *field.Path, scopeBoth, isProp bool) {
	if n.has(noModify) && p.both() {
		w.exercise(n, extUpdate, noModify)
		if !equalAs(n, p.old.v, p.new.v, w.asValues(n)) {
			w.add(at, n, kindValue, unreadableDetail(n, p, noModifyDetail(p.old.v, p.new.v)))
			w.broke(n, extUpdate, noModify, noModify)
		}
	}
	// Presence is judged only where the scope exists before and after
	// (3.2): a position missing on one side then means N, or a property
	// between N and its scope, was added or removed.
	if !isProp || !scopeBoth {
		return
	}
	removed, added := w.presenceChange(n, p)
	if n.has(noSet) {
		w.exercise(n, extUpdate, noSet)
		if added {
			w.add(at, n, kindPresence, noSetDetail())
			w.broke(n, extUpdate, noSet, noSet)
		}
	}
	if n.has(noUnset) {
		w.exercise(n, extUpdate, noUnset)
		if removed {
			w.add(at, n, kindPresence, noUnsetDetail())
			w.broke(n, extUpdate, noUnset, noUnset)
		}
	}
}
