package verify

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The wording of every schema error lives here (STYLE: wording in one place).
// Each message says what is wrong and what to do instead.

func errUnsupported(path *field.Path, value interface{}) *field.Error {
	return field.NotSupported(path, value, supportedValues)
}

func errOnRoot(path *field.Path) *field.Error {
	return field.Forbidden(path, "must not be set on the schema root: "+
		"the apiserver owns apiVersion, kind and metadata; declare the fields below the root instead")
}

func errInMetadata(path *field.Path) *field.Error {
	return field.Forbidden(path, "must not be set in metadata: the apiserver owns object metadata")
}

func errInJunctor(path *field.Path) *field.Error {
	return field.Forbidden(path, "must not be set inside allOf, anyOf, oneOf or not: "+
		"those branches only validate values and do not describe fields; "+
		"move it to the field's schema under properties, items or additionalProperties")
}

func errKeysOnNonCollection(path *field.Path) *field.Error {
	return field.Forbidden(path, "only allowed on type: array or on type: object with an additionalProperties schema; "+
		"the properties of an object are not a key set: put x-kubernetes-mutability on each property instead")
}

func errNarrowingOnCollection(path *field.Path, value, itemsKey string) *field.Error {
	return field.Invalid(path, value, fmt.Sprintf("only Immutable is allowed on a list or map: "+
		"use x-kubernetes-key-mutability: %s for its keys, or put x-kubernetes-mutability: %s on its %s",
		value, value, itemsKey))
}

// The errors of x-kubernetes-update (semantics.md 9.2).

func errUpdateNotList(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "must be a list of constraint names, such as [NoModify] or [NoUnset, NoModify]")
}

func errUpdateEmpty(path *field.Path) *field.Error {
	return field.Invalid(path, []interface{}{}, "must name at least one constraint; remove the key to declare none")
}

func errUnsupportedConstraint(path *field.Path, value interface{}) *field.Error {
	return field.NotSupported(path, value, updateConstraints)
}

func errDuplicateConstraint(path *field.Path, name string) *field.Error {
	return field.Invalid(path, name, "named twice; list each constraint once")
}

func errPresenceOnEntry(path *field.Path) *field.Error {
	return field.Forbidden(path, "an entry that appears or disappears is a key of its collection: "+
		"declare NoAddItem or NoRemoveItem on the collection")
}

func errItemsOnNonCollection(path *field.Path) *field.Error {
	return field.Forbidden(path, "only allowed on type: array or on type: object with an additionalProperties schema; "+
		"the properties of an object are not a key set: declare NoSet or NoUnset on each property instead")
}
