package verify

import (
	decltext "github.com/mut2cel/mut2cel/decl"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The wording of every schema error lives here (STYLE: wording in one place);
// where a declaration may stand is worded in decl, for translate too.
// Each message says what is wrong and what to do instead.

func errUnsupported(path *field.Path, value interface{}) *field.Error {
	return field.NotSupported(path, value, supportedValues)
}

func errOnRoot(path *field.Path) *field.Error {
	return field.Forbidden(path, decltext.OnRoot())
}

func errInMetadata(path *field.Path) *field.Error {
	return field.Forbidden(path, decltext.InMetadata())
}

func errInJunctor(path *field.Path) *field.Error {
	return field.Forbidden(path, decltext.InJunctor())
}

func errKeysOnNonCollection(path *field.Path) *field.Error {
	return field.Forbidden(path, decltext.KeysOnNonCollection())
}

func errNarrowingOnCollection(path *field.Path, value, itemsKey string) *field.Error {
	return field.Invalid(path, value, decltext.NarrowingOnCollection(value, itemsKey))
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
	return field.Forbidden(path, decltext.PresenceOnEntry())
}

func errItemsOnNonCollection(path *field.Path) *field.Error {
	return field.Forbidden(path, decltext.ItemsOnNonCollection())
}
