package plan

import "github.com/mut2cel/mut2cel/decl"

// The checks: what a rule holds the values of its host to, in the terms
// of docs/semantics.md and of no value model. A check reads paths of the
// version's schema; a back end decides how to say it: the CRD back end in
// CEL over the apiserver's schema-typed values of the host (self,
// oldSelf), the policy back end in CEL over the stored JSON of whole
// objects (object, oldObject). Each check is read at a place, the host or
// a node a Paired check leads to, whose new and old values it compares.

// Mode is the direction in which a presence or a set of keys may change:
// the values of the KEP's extensions.
type Mode string

const (
	// Immutable: neither added nor removed.
	Immutable Mode = "Immutable"
	// AddOnly: never removed.
	AddOnly Mode = "AddOnly"
	// RemoveOnly: never added.
	RemoveOnly Mode = "RemoveOnly"
)

// A Check is the condition of a rule, one of the types below.
type Check interface{ check() }

// Paired holds Body for every instance of the node At below the place
// that exists in both the old and the new object, the old and new values
// paired as semantics.md 2.2 pairs them: properties by name, map values by
// key, list-map items by their keys, items of atomic lists by index (the
// compiler never leads a check through the items of a set, whose
// instances exist on both sides only when equal). Body is read at At.
type Paired struct {
	At   decl.Path
	Body Check
}

// Unchanged holds when the value at the place, a value of the node Node,
// is the same in both objects: strict equality of semantics.md 2.3, or,
// under the rule's FormatsAsValues, equality of formatted strings as the
// apiserver's CEL reads them (semantics.md 8). Where the place is the
// host itself, the back end may split the comparison over the nodes below
// the host that the apiserver pairs (a rule per node).
type Unchanged struct{ Node decl.Path }

// Presence holds when the presence of the property Of, below the place
// Scope, changes only as Mode allows (semantics.md 3.2). Of is the
// property whose presence decides that of the declared field wherever
// Scope exists (its presence carrier): only properties lie between Scope
// and Of. A Scope that is a nullable entry has no properties when null.
type Presence struct {
	Mode      Mode
	Scope, Of decl.Path
}

// Keys holds when the keys of the collection Collection, at or below the
// place Scope, change only as Mode allows (semantics.md 4): for maps and
// list maps their keys, for sets their items, for atomic lists the
// number of items. An absent or null collection has no keys.
type Keys struct {
	Mode              Mode
	Scope, Collection decl.Path
}

// KeyPresence is the part of Keys that a check on the collection itself
// cannot make, because the collection's own check runs only where the
// collection exists in both objects: the collection appears with keys, or
// disappears with keys, only as Mode allows.
type KeyPresence struct {
	Mode              Mode
	Scope, Collection decl.Path
}

// Union checks read only the new object, at the union's node. A member
// is set when it is present and not null, and, where the union reads its
// zero value as unset (ZeroIsUnset, semantics.md 11.2), not the zero
// value of its type either; a discriminator absent or null reads as "".

// Count holds when the number of Members set is at most one, or, with
// ExactlyOne, exactly one (semantics.md 11.2).
type Count struct {
	Members    []string // property names
	ExactlyOne bool
	// ZeroIsUnset are the members unset also at their zero value.
	ZeroIsUnset []string
}

// Required holds when the property Property is set.
type Required struct {
	Property    string
	ZeroIsUnset bool
}

// SetOnlyWhen holds when the property Member is unset, or the property
// Discriminator is Value.
type SetOnlyWhen struct {
	Member, Discriminator, Value string
	ZeroIsUnset                  bool
}

// RequiredWhen holds when the property Discriminator is not Value, or
// the property Member is set.
type RequiredWhen struct {
	Member, Discriminator, Value string
	ZeroIsUnset                  bool
}

func (Paired) check()       {}
func (Unchanged) check()    {}
func (Presence) check()     {}
func (Keys) check()         {}
func (KeyPresence) check()  {}
func (Count) check()        {}
func (Required) check()     {}
func (SetOnlyWhen) check()  {}
func (RequiredWhen) check() {}

// Transition reports whether c compares the old object with the new one:
// every check but a union's.
func Transition(c Check) bool {
	switch c.(type) {
	case Count, Required, SetOnlyWhen, RequiredWhen:
		return false
	}
	return true
}
