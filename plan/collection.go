package plan

import "github.com/mut2cel/mut2cel/decl"

// Collection is a list or a map on the way from the schema root to the
// node of a union, and how docs/semantics.md pairs its entries with the
// old object's: what a back end needs to normalize a union that lies
// inside entries (semantics.md 11.7), where each entry of the new object
// is normalized against the old entry paired with it, or as created.
type Collection struct {
	// Node is the list or map, relative to the version's
	// openAPIV3Schema.
	Node    decl.Path
	Pairing Pairing
	// Keys are the key properties of a list map, in declared order.
	Keys []ListMapKey
}

// Pairing says how the entries of a collection are paired with old
// entries (semantics.md 2.2, 11.7).
type Pairing string

const (
	// ByMapKey: the values of a map, paired by their key.
	ByMapKey Pairing = "ByMapKey"
	// ByListMapKeys: the items of an x-kubernetes-list-type: map list,
	// paired by the values of their keys.
	ByListMapKeys Pairing = "ByListMapKeys"
	// Unpaired: the items of an atomic list or a set, which no old item
	// is paired with.
	Unpaired Pairing = "Unpaired"
)

// ListMapKey is one key property of a list map.
type ListMapKey struct {
	Name string
	// Type is the property's schema type (string, integer, number,
	// boolean, or another where the schema allows it).
	Type string
	// Kept: the schema keeps the property present and not null in every
	// item of a stored object (required or defaulted, in an item that is
	// never null).
	Kept bool
}

// Collection returns the collection at node, if the version lists it.
func (v *Version) Collection(node decl.Path) (Collection, bool) {
	for _, c := range v.Collections {
		if Compare(c.Node, node) == 0 {
			return c, true
		}
	}
	return Collection{}, false
}
