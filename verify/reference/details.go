package reference

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The wording of every violation detail lives here.

// maxShown bounds how much of a value a detail quotes.
const maxShown = 60

func valueDetail(value string, before, after interface{}) string {
	return fmt.Sprintf("%s: value changed from %s to %s", value, shown(before), shown(after))
}

func presenceDetail(value string, added bool) string {
	switch {
	case value == immutable && added:
		return "Immutable: field was added; it may be neither added nor removed"
	case value == immutable:
		return "Immutable: field was removed; it may be neither added nor removed"
	case added:
		return "RemoveOnly: field was added; it may only be removed"
	}
	return "AddOnly: field was removed; it may only be added"
}

func keysDetail(value string, removed, added []string) string {
	var parts []string
	if len(removed) > 0 {
		parts = append(parts, "keys removed: "+strings.Join(removed, ", "))
	}
	if len(added) > 0 {
		parts = append(parts, "keys added: "+strings.Join(added, ", "))
	}
	return fmt.Sprintf("%s: %s", value, strings.Join(parts, "; "))
}

// shown renders a value as JSON (maps with sorted keys), cut to maxShown.
func shown(v interface{}) string {
	data, err := json.Marshal(v)
	s := string(data)
	if err != nil {
		s = fmt.Sprintf("%v", v)
	}
	if r := []rune(s); len(r) > maxShown {
		s = string(r[:maxShown]) + "..."
	}
	return s
}

// The details of x-kubernetes-update violations start with the name of the
// constraint and a colon: DeclarationOf reads the name back to tell which
// constraint of the node a violation breaks.

func noModifyDetail(before, after interface{}) string {
	return fmt.Sprintf("%s: changed from %s to %s", noModify, shown(before), shown(after))
}

func noSetDetail() string {
	return noSet + ": added; an absent field may not be set"
}

func noUnsetDetail() string {
	return noUnset + ": removed; a present field may not be unset"
}

// updateKeysDetail words a NoAddItem or NoRemoveItem violation; each
// constraint denies one direction only, so one of the lists is empty.
func updateKeysDetail(constraint string, removed, added []string) string {
	if constraint == noAddItem {
		return fmt.Sprintf("%s: added %s %s", constraint, keysWord(added), strings.Join(added, ", "))
	}
	return fmt.Sprintf("%s: removed %s %s", constraint, keysWord(removed), strings.Join(removed, ", "))
}

func keysWord(keys []string) string {
	if len(keys) == 1 {
		return "key"
	}
	return "keys"
}

// The details of union violations start with the union's name and a
// colon, as its Declaration.Value: DeclarationOf reads it back. The words
// after it are those of semantics.md, "Unions".

func unionTooManyDetail(u union, present []string) string {
	if u.exactlyOne {
		return fmt.Sprintf("%s: exactly one of %s must be set; %s are set", u.name, strings.Join(u.memberNames(), ", "), strings.Join(present, ", "))
	}
	return fmt.Sprintf("%s: at most one of %s may be set; %s are set", u.name, strings.Join(u.memberNames(), ", "), strings.Join(present, ", "))
}

func unionNoneDetail(u union) string {
	return fmt.Sprintf("%s: exactly one of %s must be set; none is set", u.name, strings.Join(u.memberNames(), ", "))
}

func unionNotSelectedDetail(u union, m unionMember) string {
	return fmt.Sprintf("%s: %s may be set only when %s is %s", u.name, m.name, u.discriminator, m.value)
}

func unionSelectedUnsetDetail(u union, m unionMember) string {
	return fmt.Sprintf("%s: %s must be set when %s is %s", u.name, m.name, u.discriminator, m.value)
}
