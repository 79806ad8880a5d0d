package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// collectionPath names the collection that owns entry node n.
func collectionPath(n *crd.Node) string { return n.Parent.UserPath() }

// valueMessage words the value rule of n. NoModify alone (or with
// neither presence constraint) leaves the field free to be cleared and
// set again, which "is immutable" would deny.
func valueMessage(n *crd.Node, c decl.Constraints) string {
	switch {
	case n.IsProperty() && c&decl.Presence == 0:
		return n.UserPath() + " cannot be changed while set"
	case n.IsProperty():
		return n.UserPath() + " is immutable"
	case n.IsValue():
		return "existing values of " + collectionPath(n) + " are immutable"
	default:
		return "existing items of " + collectionPath(n) + " are immutable"
	}
}

func keysMessage(c *crd.Node, m mutability) string {
	what := "keys"
	if lt := c.ListType(); lt == "atomic" || lt == "set" {
		what = "items"
	}
	if c.ListType() == "atomic" && m == immutable {
		return "the number of items of " + c.UserPath() + " is immutable"
	}
	switch m {
	case addOnly:
		return what + " cannot be removed from " + c.UserPath()
	case removeOnly:
		return what + " cannot be added to " + c.UserPath()
	}
	return what + " of " + c.UserPath() + " cannot be added or removed"
}
