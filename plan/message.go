package plan

import "strings"

// PresenceMessage words the message of a presence rule about fields, the
// instance paths (spec.a, spec.b[*].c) of the properties whose presence
// it checks: "a, b and c cannot be added or removed". Rules of several
// fields are one where a back end writes one rule for them (the
// compiler's wording of a field alone is the same).
func PresenceMessage(fields []string, m Mode) string {
	subject := fields[len(fields)-1]
	if len(fields) > 1 {
		subject = strings.Join(fields[:len(fields)-1], ", ") + " and " + subject
	}
	switch m {
	case AddOnly:
		return subject + " cannot be removed once set"
	case RemoveOnly:
		return subject + " cannot be added, only removed"
	}
	return subject + " cannot be added or removed"
}
