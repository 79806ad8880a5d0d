package infer

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// A proposal is right when the documented intent implies it, and the
// intent is found when the proposals imply it: declaring .spec.source
// Immutable says what declaring each of its two properties Immutable
// says, where the schema requires source. implier decides that for one
// version, from docs/semantics.md:
//
//   - NoModify on a node holds for every node below it (3.1);
//   - NoModify on an object holds when every property of it keeps its
//     value and its presence (the presence by declaration, or required);
//   - NoSet and NoUnset on a property hold when a node above it in its
//     scope, or the scope itself, keeps its value and that presence
//     (3.2), or when it is required and its parent keeps that presence;
//   - a key constraint holds on a collection that keeps its value and
//     its presence.
type implier struct {
	version *crd.Version
	has     map[string]decl.Constraints // path -> declared
	memo    map[string]bool
}

func newImplier(v *crd.Version, u *units) *implier {
	im := &implier{version: v, has: map[string]decl.Constraints{}, memo: map[string]bool{}}
	for k, c := range u.constraints {
		if versionOf(k) == v.Name {
			im.has[u.paths[k].String()] |= c
		}
	}
	return im
}

// all reports whether every constraint of c holds on p.
func (im *implier) all(p decl.Path, c decl.Constraints) bool {
	for _, n := range decl.Names {
		if c.Has(n.C) && !im.holds(p, n.C) {
			return false
		}
	}
	return true
}

func (im *implier) holds(p decl.Path, c decl.Constraint) bool {
	k := p.String() + "\x00" + c.String()
	if v, ok := im.memo[k]; ok {
		return v
	}
	im.memo[k] = false // a cycle proves nothing
	v := im.decide(p, c)
	im.memo[k] = v
	return v
}

func (im *implier) decide(p decl.Path, c decl.Constraint) bool {
	if im.has[p.String()].Has(c) {
		return true
	}
	switch c {
	case decl.NoModify:
		return im.aboveKeeps(p) || im.propertiesKept(p)
	case decl.NoSet, decl.NoUnset:
		return !p.IsEntry() && (im.scopeKeeps(p, c) || im.required(p) && im.parentPresence(p, c))
	}
	// NoAddItem, NoRemoveItem
	presence := decl.NoSet
	if c == decl.NoRemoveItem {
		presence = decl.NoUnset
	}
	return im.holds(p, decl.NoModify) && (p.IsEntry() || im.holds(p, presence))
}

// aboveKeeps: a node above p keeps its value.
func (im *implier) aboveKeeps(p decl.Path) bool {
	for i := len(p) - 1; i > 0; i-- {
		if im.has[p[:i].String()].Has(decl.NoModify) {
			return true
		}
	}
	return false
}

// propertiesKept: p is an object whose every property keeps its value
// and presence.
func (im *implier) propertiesKept(p decl.Path) bool {
	node, ok := im.version.NodeAt(p)
	props, _ := node["properties"].(map[string]interface{})
	if !ok || len(props) == 0 || node["additionalProperties"] != nil || node["x-kubernetes-preserve-unknown-fields"] == true {
		return false
	}
	for name := range props {
		q := p.Child(decl.Step{Name: name})
		if !im.holds(q, decl.NoModify) {
			return false
		}
		if !im.required(q) && !(im.holds(q, decl.NoSet) && im.holds(q, decl.NoUnset)) {
			return false
		}
	}
	return true
}

// scopeKeeps: a node above p, up to and including its scope, keeps its
// value and the presence c.
func (im *implier) scopeKeeps(p decl.Path, c decl.Constraint) bool {
	for i := len(p) - 1; i >= 1; i-- {
		a := p[:i]
		if im.has[a.String()].Has(decl.NoModify) && (a.IsEntry() || im.holds(a, c)) {
			return true
		}
		if a.IsEntry() {
			return false // the scope: nothing above it counts
		}
	}
	return false
}

// parentPresence: p's parent is a scope (the root, an entry) or keeps
// the presence c.
func (im *implier) parentPresence(p decl.Path, c decl.Constraint) bool {
	parent := p[:len(p)-1]
	return len(parent) == 0 || parent.IsEntry() || im.holds(parent, c)
}

// required: p is a property its parent requires.
func (im *implier) required(p decl.Path) bool {
	if len(p) == 0 || p.IsEntry() {
		return false
	}
	parent, _ := im.version.NodeAt(p[:len(p)-1])
	req, _ := parent["required"].([]interface{})
	for _, r := range req {
		if r == p[len(p)-1].Name {
			return true
		}
	}
	return false
}
