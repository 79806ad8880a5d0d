package crdrules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/plan"
)

// union renders a union check (semantics.md, Unions) on n, whose value is
// x. The checks read no old value: they run on create and, through the
// apiserver's ratcheting, on every update that changes n. Each is a
// constant number of property lookups.
func (w *ruleWriter) union(n *crd.Node, check plan.Check, x string) (string, error) {
	switch c := check.(type) {
	case plan.Count:
		return w.count(n, c, x)
	case plan.Required:
		m, err := w.member(n, c.Property, x)
		return isSet(n.Prop(c.Property), m, c.ZeroIsUnset), err
	case plan.SetOnlyWhen:
		// !has(self.m) || (has(self.D) && self.D == 'M')
		m, d, err := w.tie(n, c.Member, c.Discriminator, x)
		selected := d + " == " + celString(c.Value)
		if !n.Prop(c.Discriminator).KeptPresent() {
			selected = "(has(" + d + ") && " + selected + ")"
		}
		return "!" + paren(isSet(n.Prop(c.Member), m, c.ZeroIsUnset)) + " || " + selected, err
	case plan.RequiredWhen:
		// !has(self.D) || self.D != 'M' || has(self.m)
		m, d, err := w.tie(n, c.Member, c.Discriminator, x)
		rule := d + " != " + celString(c.Value) + " || " + paren(isSet(n.Prop(c.Member), m, c.ZeroIsUnset))
		if !n.Prop(c.Discriminator).KeptPresent() {
			rule = "!has(" + d + ") || " + rule
		}
		return rule, err
	}
	return "", fmt.Errorf("no CRD rule for the check %T", check)
}

// count bounds the number of members set, with a sum of conditionals:
//
//	(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1     at most one
//	(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1     exactly one
//
// Each term is one lookup and an addition: the estimate grows by a
// constant per member, while controller-gen's
// [has(self.a), has(self.b)].filter(x, x == true).size() builds a list
// and iterates it (docs/cost.md compares the two).
func (w *ruleWriter) count(n *crd.Node, c plan.Count, x string) (string, error) {
	var errs error
	for _, m := range c.Members {
		errs = joinReasons(errs, w.g.presenceReadable(n.Prop(m)))
	}
	terms := make([]string, len(c.Members))
	for i, m := range c.Members {
		s, err := sel(x, m)
		errs = joinReasons(errs, err)
		terms[i] = "(" + isSet(n.Prop(m), s, slices.Contains(c.ZeroIsUnset, m)) + " ? 1 : 0)"
	}
	if c.ExactlyOne {
		return strings.Join(terms, " + ") + " == 1", errs
	}
	return strings.Join(terms, " + ") + " <= 1", errs
}

// isSet renders "the member m, selected as s, is set" (semantics.md
// 11.2): has(s), and where its zero value reads as unset, not that value
// either, tested as its CEL type allows (the compiler leaves out the types
// without one zero value):
//
//	has(self.m) && self.m != ''         a string
//	has(self.m) && self.m != 0          an integer (0.0 for a number)
//	has(self.m) && self.m               a boolean
//	has(self.m) && size(self.m) != 0    a list or a map
func isSet(m *crd.Node, s string, zeroIsUnset bool) string {
	if !zeroIsUnset {
		return "has(" + s + ")"
	}
	nonZero := ""
	switch m.Schema.Type {
	case "string":
		nonZero = s + " != ''"
	case "integer":
		nonZero = s + " != 0"
	case "number":
		nonZero = s + " != 0.0"
	case "boolean":
		nonZero = s
	default:
		nonZero = "size(" + s + ") != 0"
	}
	return "has(" + s + ") && " + nonZero
}

// member selects the member name of n from x, whose presence a union rule
// tests.
func (w *ruleWriter) member(n *crd.Node, name, x string) (string, error) {
	readable := w.g.presenceReadable(n.Prop(name))
	s, err := sel(x, name)
	return s, joinReasons(readable, err)
}

// tie selects the member and the discriminator of n from x, for a rule
// that ties them.
func (w *ruleWriter) tie(n *crd.Node, member, discriminator, x string) (string, string, error) {
	readable := w.g.presenceReadable(n.Prop(member))
	d, dErr := sel(x, discriminator)
	m, mErr := sel(x, member)
	return m, d, joinReasons(readable, dErr, mErr)
}

// celString renders s as a CEL string literal: in single quotes where it
// needs no escape, else in Go's double-quoted form, whose escapes CEL
// reads alike (\", \\, \n, \xHH, \uHHHH, \UHHHHHHHH).
func celString(s string) string {
	q := strconv.Quote(s)
	if q == `"`+s+`"` && !strings.ContainsAny(s, `'\`) {
		return "'" + s + "'"
	}
	return q
}
