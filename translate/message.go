package translate

import (
	"regexp"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// userPath renders n as users read instance paths, with [*] for every list
// item or map value: spec.ports[*].protocol.
func (n *node) userPath() string {
	var b strings.Builder
	for _, s := range n.path {
		switch {
		case !s.Entries:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		default:
			b.WriteString("[*]")
		}
	}
	if b.Len() == 0 {
		return "<root>"
	}
	return b.String()
}

// collectionPath names the collection that owns entry node n.
func collectionPath(n *node) string { return n.parent.userPath() }

// valueMessage words the value rule of n. NoModify alone (or with
// neither presence constraint) leaves the field free to be cleared and
// set again, which "is immutable" would deny.
func valueMessage(n *node, c decl.Constraints) string {
	switch {
	case n.isProperty() && c&decl.Presence == 0:
		return n.userPath() + " cannot be changed while set"
	case n.isProperty():
		return n.userPath() + " is immutable"
	case n.isValue():
		return "existing values of " + collectionPath(n) + " are immutable"
	default:
		return "existing items of " + collectionPath(n) + " are immutable"
	}
}

// presenceMessage words the presence rule of fields, which share one
// presence carrier (presenceCarrier): "a, b and c cannot be added or
// removed".
func presenceMessage(fields []*node, m mutability) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.userPath()
	}
	subject := names[len(names)-1]
	if len(names) > 1 {
		subject = strings.Join(names[:len(names)-1], ", ") + " and " + subject
	}
	switch m {
	case addOnly:
		return subject + " cannot be removed once set"
	case removeOnly:
		return subject + " cannot be added, only removed"
	}
	return subject + " cannot be added or removed"
}

func keysMessage(c *node, m mutability) string {
	what := "keys"
	if lt := c.listType(); lt == "atomic" || lt == "set" {
		what = "items"
	}
	if c.listType() == "atomic" && m == immutable {
		return "the number of items of " + c.userPath() + " is immutable"
	}
	switch m {
	case addOnly:
		return what + " cannot be removed from " + c.userPath()
	case removeOnly:
		return what + " cannot be added to " + c.userPath()
	}
	return what + " of " + c.userPath() + " cannot be added or removed"
}

var plainFieldName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// fieldPathBetween renders the rule fieldPath from host to target, for
// errors to point at the declared field: .a.b, or ['a.b'] where a name has
// characters the path syntax uses. Only property steps can be named; the
// path stops before the first list item or map value.
func fieldPathBetween(host, target *node) string {
	var b strings.Builder
	for _, c := range pathBetween(host, target) {
		if !c.isProperty() {
			break
		}
		name := c.name()
		if plainFieldName.MatchString(name) {
			b.WriteString("." + name)
			continue
		}
		b.WriteString("['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "']")
	}
	return b.String()
}
