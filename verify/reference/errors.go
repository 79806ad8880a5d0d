package reference

import (
	"fmt"

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

// The errors of x-kubernetes-unions (semantics.md, "Unions").

func errUnionOnNonObject(path *field.Path) *field.Error {
	return field.Forbidden(path, "a union stands on an object node with properties (type: object, no additionalProperties schema); move it to the object whose properties are its members")
}

func errUnionsNotList(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "must be a non-empty list of unions, each {discriminator, fields-to-discriminateBy, exactlyOne}")
}

func errUnionNotObject(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "a union is an object with fields-to-discriminateBy and, optionally, discriminator and exactlyOne")
}

func errUnionKey(path *field.Path, key string) *field.Error {
	return field.NotSupported(path, key, unionKeys)
}

func errExactlyOneNotBool(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "must be true or false (absent means false: at most one member)")
}

func errDiscriminatorName(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "must be the name of a string property of this object; leave discriminator out for a union without one")
}

func errNotAProperty(path *field.Path, name string) *field.Error {
	return field.Invalid(path, name, "not a property of this object; a union names properties of the object it stands on")
}

func errDiscriminatorNotString(path *field.Path, name string) *field.Error {
	return field.Invalid(path, name, "the discriminator must be a property of type string")
}

func errNoMembers(path *field.Path, value interface{}) *field.Error {
	return field.Required(path, "must map at least one member property to its discriminator value")
}

func errDiscriminatorIsMember(path *field.Path, name string) *field.Error {
	return field.Invalid(path, name, "the discriminator cannot also be a member of its union")
}

func errMemberValue(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "with a discriminator, each member needs its discriminator value as a string")
}

func errMemberValueTaken(path *field.Path, value, other string) *field.Error {
	return field.Duplicate(path, value+" (also the value of "+other+"; each value selects one member)")
}

func errSharedMember(path *field.Path, name string, other int) *field.Error {
	return field.Invalid(path, name, fmt.Sprintf("already a member of union %d of this object; a property belongs to at most one union", other))
}

func errZeroIsUnsetNotList(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "must be a list of members")
}

func errZeroIsUnsetNotMember(path *field.Path, value interface{}) *field.Error {
	return field.Invalid(path, value, "not a member of this union")
}

func errZeroIsUnsetNoZero(path *field.Path, name string) *field.Error {
	return field.Invalid(path, name, "its type has no one zero value (an object that is not a map, int-or-string, a formatted string CEL reads as another type, or no type)")
}
