package crdrules

import (
	"fmt"
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
		return "has(" + m + ")", err
	case plan.SetOnlyWhen:
		// !has(self.m) || (has(self.D) && self.D == 'M')
		m, d, err := w.tie(n, c.Member, c.Discriminator, x)
		selected := d + " == " + celString(c.Value)
		if !n.Prop(c.Discriminator).KeptPresent() {
			selected = "(has(" + d + ") && " + selected + ")"
		}
		return "!has(" + m + ") || " + selected, err
	case plan.RequiredWhen:
		// !has(self.D) || self.D != 'M' || has(self.m)
		m, d, err := w.tie(n, c.Member, c.Discriminator, x)
		rule := d + " != " + celString(c.Value) + " || has(" + m + ")"
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
		terms[i] = "(has(" + s + ") ? 1 : 0)"
	}
	if c.ExactlyOne {
		return strings.Join(terms, " + ") + " == 1", errs
	}
	return strings.Join(terms, " + ") + " <= 1", errs
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
