package reference

import "slices"

// Constraint is one way a declaration can deny an update: one of the five
// constraints of semantics.md 9.2 that the declaration stands for, and for
// NoSet and NoUnset the property whose addition or removal breaks it.
//
// Constraints are the unit of verify's coverage. A pair tests a rule only
// if the apiserver judges it (both objects valid) and it breaks what the
// rule is there to deny; a run that has no such pair for some constraint
// has not looked at the rules that enforce it, whatever else it saw.
type Constraint struct {
	Declaration
	// Name is NoSet, NoUnset, NoModify, NoAddItem or NoRemoveItem.
	Name string
	// Via is, for NoSet and NoUnset, the schema path of the property
	// that comes or goes: the declared field itself, or an optional
	// property between it and its scope (semantics.md 3.2), each of
	// which a rule must watch. Empty for the other constraints.
	Via string
}

func (c Constraint) String() string {
	s := c.Name + " of " + c.Extension + ": " + c.Value + " at " + c.Path
	if c.Via != "" && c.Via != c.Path {
		s += " (via " + c.Via + ")"
	}
	return s
}

// Constraints lists the constraints of every declaration, in the order of
// declarations, each once. A declaration at or below the items of a set
// has none: an entry of a set exists before and after only when it is
// unchanged (semantics.md 3.3), so no valid update can break it; nor can
// one change the key fields of a list-map item, which pair it with its
// old self, nor one change a value its enum fixes. NoSet and NoUnset get one constraint per property their
// presence can change at; a field that every property down from its
// scope requires or defaults has none.
func (c *Checker) Constraints() []Constraint {
	w := &constraintWalk{c: c, seen: map[Constraint]bool{}}
	w.walk(c.root, nil, false, false, false, nil)
	return w.out
}

// constraintWalk collects the constraints of Constraints, each once, in
// the order the walk meets them.
type constraintWalk struct {
	c    *Checker
	out  []Constraint
	seen map[Constraint]bool
}

func (w *constraintWalk) add(k Constraint) {
	if !w.seen[k] {
		w.seen[k] = true
		w.out = append(w.out, k)
	}
}

// walk visits n below the optional properties carriers, between n and
// its scope. key is set on the key fields of list-map items and below:
// an item is paired with the old item of the same key, so the key's
// value and presence are the same on both sides of every pair. keys are
// those of the list-map whose items n is.
func (w *constraintWalk) walk(n *node, carriers []*node, inSet, isProp, key bool, keys []string) {
	if isProp && n.optional && !key {
		carriers = append(carriers[:len(carriers):len(carriers)], n)
	}
	if !inSet {
		w.declared(n, carriers, isProp, key)
	}
	for _, p := range n.props {
		if !isProp && n.nullable && n != w.c.root {
			// Below a null entry, none of its properties exists.
			carriers := append(carriers[:len(carriers):len(carriers)], p.node)
			w.walk(p.node, carriers, inSet, true, key || slices.Contains(keys, p.name), nil)
			continue
		}
		w.walk(p.node, carriers, inSet, true, key || slices.Contains(keys, p.name), nil)
	}
	// Entries are scopes of their own: presence below starts afresh.
	if n.items != nil {
		var keys []string
		if n.listType == "map" {
			keys = n.mapKeys
		}
		w.walk(n.items, nil, inSet || n.listType == "set", false, false, keys)
	}
	if n.values != nil {
		w.walk(n.values, nil, inSet, false, false, nil)
	}
}

// declared adds the constraints of the declarations of n.
func (w *constraintWalk) declared(n *node, carriers []*node, isProp, key bool) {
	for _, d := range w.c.nodeDeclarations(n) {
		if d.Extension == extUnions {
			continue // no update constraint: unions judge values
		}
		for _, name := range constraintNames(d, n, isProp) {
			switch {
			case name == noSet || name == noUnset:
				for _, via := range carriers {
					w.add(Constraint{d, name, via.schemaPath})
				}
			case name == noModify && (key || n.fixed):
			default:
				w.add(Constraint{Declaration: d, Name: name})
			}
		}
	}
}

// nodeDeclarations lists the declarations of one node, in the order of
// declarations.
func (c *Checker) nodeDeclarations(n *node) []Declaration {
	var out []Declaration
	if n.mut != "" {
		out = append(out, Declaration{n.schemaPath, extMutability, n.mut})
	}
	if n.keyMut != "" {
		out = append(out, Declaration{n.schemaPath, extKeyMutability, n.keyMut})
	}
	for _, u := range n.update {
		out = append(out, Declaration{n.schemaPath, extUpdate, u})
	}
	for _, u := range n.unions {
		out = append(out, Declaration{n.schemaPath, extUnions, u.name})
	}
	return out
}

// constraintNames is the table of semantics.md 9.2: the constraints a
// declaration on n stands for.
func constraintNames(d Declaration, n *node, isProp bool) []string {
	switch d.Extension {
	case extUpdate:
		return []string{d.Value}
	case extKeyMutability:
		switch d.Value {
		case addOnly:
			return []string{noRemoveItem}
		case removeOnly:
			return []string{noAddItem}
		}
		return []string{noAddItem, noRemoveItem}
	}
	if !isProp {
		// On items or values: their values, and with AddOnly or
		// RemoveOnly the keys of the collection (3.3).
		switch d.Value {
		case addOnly:
			return []string{noModify, noRemoveItem}
		case removeOnly:
			return []string{noModify, noAddItem}
		}
		return []string{noModify}
	}
	switch d.Value {
	case addOnly:
		return []string{noUnset, noModify}
	case removeOnly:
		return []string{noSet, noModify}
	}
	return []string{noSet, noUnset, noModify}
}

// broke records that the update breaks constraint name of the declaration
// ext: value of n; via is where presence changed, for NoSet and NoUnset.
func (w *walker) broke(n *node, ext, value, name string) {
	if !w.track {
		return
	}
	k := Constraint{Declaration: Declaration{n.schemaPath, ext, value}, Name: name}
	if name == noSet || name == noUnset {
		k.Via = w.via
	}
	for _, seen := range w.broken {
		if seen == k {
			return
		}
	}
	w.broken = append(w.broken, k)
}
