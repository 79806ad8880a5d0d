package translate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// The reason of a union rule that finds a field set that may not be.
// reasonForbidden is the other.
const reasonRequired = "FieldValueRequired"

// unionPlacement says why the unions d declares cannot stand on the
// schema node raw (semantics.md, Unions), every reason at once: the node
// must be an object with properties outside metadata, the unions
// consistent in themselves (decl.CheckUnions), every member a property
// of the node, the discriminator a string property whose CEL value is
// the stored string.
func unionPlacement(d decl.Declaration, raw map[string]interface{}) (Problem, bool) {
	if len(d.Path) > 0 && !d.Path[0].Entries && d.Path[0].Name == "metadata" {
		return errInMetadata(), true
	}
	us, err := decl.ParseUnionsText(d.Value)
	if err == nil {
		err = decl.CheckUnions(us)
	}
	if err != nil {
		return newProblem(Invalid, "%v", err), true
	}
	props, _ := raw["properties"].(map[string]interface{})
	if raw["type"] != "object" || len(props) == 0 {
		return newProblem(Forbidden, "only allowed on type: object with properties: the members and the discriminator of a union are properties of the node that declares it"), true
	}
	var why []string
	for i, u := range us {
		for _, m := range u.Members {
			if _, ok := props[m.Name]; !ok {
				why = append(why, fmt.Sprintf("union %d: member %s is not a property of this object", i+1, m.Name))
			}
		}
		if u.Discriminator == "" {
			continue
		}
		dp, ok := props[u.Discriminator].(map[string]interface{})
		switch {
		case !ok:
			why = append(why, fmt.Sprintf("union %d: the discriminator %s is not a property of this object", i+1, u.Discriminator))
		case dp["type"] != "string":
			why = append(why, fmt.Sprintf("union %d: the discriminator %s must be of type string", i+1, u.Discriminator))
		default:
			if f, ok := dp["format"].(string); ok && typedFormats[f].celType != "" {
				why = append(why, fmt.Sprintf("union %d: the discriminator %s has format %s, which the apiserver's CEL reads as a %s, not as the string a member's value is compared with; remove the format", i+1, u.Discriminator, f, typedFormats[f].celType))
			}
		}
	}
	if len(why) > 0 {
		return newProblem(Invalid, "%s", strings.Join(why, "; ")), true
	}
	return Problem{}, false
}

// unionRules checks the unions of n on every value of n (semantics.md,
// Unions) with rules on n that do not read oldSelf, so that they run on
// create and, through the apiserver's ratcheting, on every update that
// changes n. Each rule is a constant number of property lookups.
func (p *planner) unionRules(n *node, us []decl.Union) error {
	var errs []error
	for _, u := range us {
		members := make([]*node, len(u.Members))
		for i, m := range u.Members {
			members[i] = n.propIndex[m.Name]
			errs = append(errs, p.g.presenceReadable(members[i]))
		}
		var err error
		if u.Discriminator == "" {
			err = p.countRule(n, members, u.ExactlyOne)
		} else {
			err = p.discriminatedRules(n, u, members)
		}
		errs = append(errs, err)
	}
	return joinReasons(errs...)
}

// countRule bounds the number of members set, with a sum of conditionals:
//
//	(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1     at most one
//	(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1     exactly one
//	has(self.a)                                            exactly one of one
//
// Each term is one lookup and an addition: the estimate grows by a
// constant per member, while controller-gen's
// [has(self.a), has(self.b)].filter(x, x == true).size() builds a list
// and iterates it (docs/cost.md compares the two). A union of one member
// that may be unset checks nothing and has no rule.
func (p *planner) countRule(n *node, members []*node, exactlyOne bool) error {
	terms := make([]string, len(members))
	var errs error
	for i, m := range members {
		x, err := sel("self", m.name())
		errs = joinReasons(errs, err)
		terms[i] = "(has(" + x + ") ? 1 : 0)"
	}
	names := memberNames(members)
	switch {
	case exactlyOne && len(members) == 1:
		x, _ := sel("self", members[0].name())
		p.addRule(n, edit.Rule{Rule: "has(" + x + ")", Message: names + " must be set", Reason: reasonRequired, FieldPath: fieldPathBetween(n, members[0])})
	case exactlyOne:
		p.addRule(n, edit.Rule{Rule: strings.Join(terms, " + ") + " == 1", Message: "exactly one of " + names + " must be set", Reason: reasonRequired})
	case len(members) > 1:
		p.addRule(n, edit.Rule{Rule: strings.Join(terms, " + ") + " <= 1", Message: "at most one of " + names + " may be set", Reason: reasonForbidden})
	}
	return errs
}

// discriminatedRules ties each member to the discriminator D, one rule
// per member so that each error names its field:
//
//	!has(self.m) || (has(self.D) && self.D == 'M')     m may be set only when D is M
//
// which also allows at most one member, the values being distinct. With
// exactly one, the selected member must be set, and D too:
//
//	!has(self.D) || self.D != 'M' || has(self.m)       m must be set when D is M
//	has(self.D)                                        D must be set
//
// A value of D that selects no member allows none (the KEP's "Nothing").
// Where the schema keeps D present (required, not nullable, or
// defaulted), its has() is left out.
func (p *planner) discriminatedRules(n *node, u decl.Union, members []*node) error {
	dn := n.propIndex[u.Discriminator]
	d, errs := sel("self", u.Discriminator)
	dKept := keptPresent(dn)
	for i, m := range members {
		x, err := sel("self", m.name())
		errs = joinReasons(errs, err)
		value := celString(u.Members[i].Value)
		selected := d + " == " + value
		if !dKept {
			selected = "(has(" + d + ") && " + selected + ")"
		}
		p.addRule(n, edit.Rule{Rule: "!has(" + x + ") || " + selected,
			Message: m.name() + " may be set only when " + dn.name() + " is " + u.Members[i].Value, Reason: reasonForbidden, FieldPath: fieldPathBetween(n, m)})
	}
	if !u.ExactlyOne {
		return errs
	}
	if !dKept {
		p.addRule(n, edit.Rule{Rule: "has(" + d + ")", Message: dn.name() + " must be set", Reason: reasonRequired, FieldPath: fieldPathBetween(n, dn)})
	}
	for i, m := range members {
		x, _ := sel("self", m.name())
		rule := d + " != " + celString(u.Members[i].Value) + " || has(" + x + ")"
		if !dKept {
			rule = "!has(" + d + ") || " + rule
		}
		p.addRule(n, edit.Rule{Rule: rule,
			Message: m.name() + " must be set when " + dn.name() + " is " + u.Members[i].Value, Reason: reasonRequired, FieldPath: fieldPathBetween(n, m)})
	}
	return errs
}

// memberNames lists the members' property names for a message: "a, b".
func memberNames(members []*node) string {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.name()
	}
	return strings.Join(names, ", ")
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
