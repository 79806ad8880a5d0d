package decl

import "fmt"

// Why a declaration cannot stand where it is written: one sentence for each
// rule of semantics.md 1.1 and 9.2. translate's front ends and verify's
// reference checker each decide by themselves whether a rule applies (so
// that one bug does not hide in both) and say it with these words (so that
// a user reads one sentence whichever refused).

// OnRoot: 1.1.2.
func OnRoot() string {
	return "must not be set on the schema root: the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead"
}

// InMetadata: 1.1.2.
func InMetadata() string {
	return "must not be set in metadata: the apiserver owns object metadata"
}

// InJunctor: 1.1.5.
func InJunctor() string {
	return "must not be set inside allOf, anyOf, oneOf or not: those branches only validate values and do not describe fields; " +
		"move it to the field's schema under properties, items or additionalProperties"
}

// KeysOnNonCollection: x-kubernetes-key-mutability on a node without keys
// (1.1.3).
func KeysOnNonCollection() string {
	return "only allowed on type: array or on type: object with an additionalProperties schema; " +
		"the properties of an object are not a key set: put x-kubernetes-mutability on each property instead"
}

// NarrowingOnCollection: AddOnly or RemoveOnly as x-kubernetes-mutability
// of a list or map (1.1.4); entries is "items" or "additionalProperties".
func NarrowingOnCollection(value, entries string) string {
	return fmt.Sprintf("only Immutable is allowed on a list or map: "+
		"use x-kubernetes-key-mutability: %s for its keys, or put x-kubernetes-mutability: %s on its %s",
		value, value, entries)
}

// PresenceOnEntry: NoSet or NoUnset on list items or map values (9.2).
func PresenceOnEntry() string {
	return "an entry that appears or disappears is a key of its collection: declare NoAddItem or NoRemoveItem on the collection"
}

// ItemsOnNonCollection: NoAddItem or NoRemoveItem on a node without keys
// (9.2).
func ItemsOnNonCollection() string {
	return "only allowed on type: array or on type: object with an additionalProperties schema; " +
		"the properties of an object are not a key set: declare NoSet or NoUnset on each property instead"
}
