package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// The reasons a generated rule reports: the update is refused, not the
// value itself (apimachinery's FieldValueForbidden), or a field a union
// needs is missing (FieldValueRequired).
const (
	reasonForbidden = "FieldValueForbidden"
	reasonRequired  = "FieldValueRequired"
)

// planner turns the declarations of one version schema into the checks
// they need, on their hosts, in the order of the declarations.
type planner struct {
	// declared holds what each node declares.
	declared map[*crd.Node]*nodeDecls
	rules    []plan.Rule
	// origin is the declaration being planned; asValues says whether it
	// compares formatted strings as values.
	origin   decl.Declaration
	asValues bool
	// formatsAsValues: the run compares formatted strings as CEL values
	// (Options.CompareFormatsAsValues).
	formatsAsValues bool
}

// plan generates the checks of every declaration below root, in walk
// order, each node's in the order of decl.Extensions.
func (p *planner) plan(root *crd.Node) {
	root.Walk(func(n *crd.Node) {
		d := p.declared[n]
		if d == nil {
			return
		}
		if m := d.mutability; m != unset {
			p.declaration(n, d, extMutability, func() { p.mutabilityRules(n, m) })
		}
		if m := d.keyMutability; m != unset {
			p.declaration(n, d, extKeyMutability, func() { p.keyRules(n, m) })
		}
		if c := d.update; c != 0 {
			p.declaration(n, d, extUpdate, func() { p.updateRules(n, c) })
		}
		if us := d.unions; len(us) > 0 {
			p.declaration(n, d, extUnions, func() { p.unionRules(n, us) })
		}
	})
}

// declaration runs gen with the declaration of n for ext as the origin of
// the rules it adds.
func (p *planner) declaration(n *crd.Node, d *nodeDecls, ext string, gen func()) {
	p.origin = d.byExt[ext]
	p.asValues = p.comparesAsValues(n)
	gen()
}

// add hosts check on host, for the declaration being planned.
func (p *planner) add(host *crd.Node, check plan.Check, msg, reason string, field *crd.Node) {
	p.rules = append(p.rules, plan.Rule{Host: host.Path, Check: check, Message: msg, Reason: reason,
		Field: field.Path, Origin: p.origin, FormatsAsValues: p.asValues})
}

// updateRules implements x-kubernetes-update on n (semantics.md 9.2) with
// the rules of the KEP values each constraint is part of: NoModify is the
// value rule, NoSet and NoUnset the presence rule, NoAddItem and
// NoRemoveItem the key rule, each with the KEP value whose table row it
// is.
func (p *planner) updateRules(n *crd.Node, c decl.Constraints) {
	if c.Has(decl.NoModify) && p.coveredAbove(n.Parent, p.comparesAsValues(n)) == nil {
		p.valueRules(n, c)
	}
	if m := kepValue(c, decl.NoSet, decl.NoUnset); m != unset && n.IsProperty() {
		p.presenceRule(n, m)
	}
	if m := kepValue(c, decl.NoAddItem, decl.NoRemoveItem); m != unset {
		p.keyRules(n, m)
	}
}

// kepValue names the KEP value that denies what c denies of a pair of
// constraints: forbidding the arrival (NoSet, NoAddItem) is RemoveOnly,
// forbidding the departure (NoUnset, NoRemoveItem) AddOnly, both
// Immutable.
func kepValue(c decl.Constraints, arrive, depart decl.Constraint) mutability {
	switch {
	case c.Has(arrive) && c.Has(depart):
		return immutable
	case c.Has(arrive):
		return removeOnly
	case c.Has(depart):
		return addOnly
	}
	return unset
}

// mutabilityRules implements x-kubernetes-mutability on n (semantics.md 3).
func (p *planner) mutabilityRules(n *crd.Node, m mutability) {
	if p.coveredAbove(n.Parent, p.comparesAsValues(n)) == nil {
		p.valueRules(n, decl.FieldConstraints)
	}
	if n.IsProperty() {
		p.presenceRule(n, m)
	}
	if n.IsEntry() && m != immutable {
		p.keyRules(n.Parent, m)
	}
}

// valueRules makes the value of n immutable (semantics.md 3.1); c, the
// constraints declared with it, chooses the message. A node the apiserver
// pairs with its old value hosts the comparison itself; another is
// compared from the nearest node above it that is paired, through every
// pair of its instances.
func (p *planner) valueRules(n *crd.Node, c decl.Constraints) {
	if n.UnderSetItem() {
		return
	}
	msg := valueMessage(n, c)
	if n.Hostable() {
		p.add(n, plan.Unchanged{Node: n.Path}, msg, reasonForbidden, n)
		return
	}
	host := nearestHostable(n)
	p.add(host, paired(host, n, plan.Unchanged{Node: n.Path}), msg, reasonForbidden, n)
}

// presenceRule checks the presence of property n within its scope
// (semantics.md 3.2). The check reads only the chain down to n's presence
// carrier, which is present exactly where n is.
func (p *planner) presenceRule(n *crd.Node, m mutability) {
	scope := n.Scope()
	carrier := presenceCarrier(scope, n)
	if carrier == scope {
		return // the schema keeps n present: a rule that could never fail would only cost
	}
	p.scopedRule(scope, n, true, plan.PresenceMessage([]string{n.UserPath()}, m),
		plan.Presence{Mode: m, Scope: scope.Path, Of: carrier.Path})
}

// presenceCarrier returns the property whose presence decides that of n
// wherever scope exists: the nearest of n and its ancestors below scope
// that the schema does not keep present (crd.Node.KeptPresent), or scope
// itself when the schema keeps n present all the way up. Below the
// carrier n comes and goes with the carrier. Reading the shorter chain
// matters at runtime: the apiserver's CEL rebuilds the map of an
// object's property schemas on every lookup.
func presenceCarrier(scope, n *crd.Node) *crd.Node {
	c := n
	for c != scope && c.KeptPresent() {
		c = c.Parent
	}
	return c
}

// keyRules checks the keys of collection c (semantics.md 4).
//
// Where c itself is correlated below its scope, the check is split as a
// hand-written one would be: the containment on c, which the apiserver
// runs whenever c exists before and after, and a constant-cost presence
// check on the scope. One rule on the scope would select c from the scope
// in every iteration, which costs more.
func (p *planner) keyRules(c *crd.Node, m mutability) {
	scope := c.Scope()
	msg := keysMessage(c, m)
	// Values equal as CEL values have the same keys, but for sets whose
	// items hold several spellings of one value.
	byValue := !crd.SpelledFormatIn(c.Items) && !crd.SpelledFormatIn(c.Values)
	if scope == c || !c.Hostable() || c.ListType() == "atomic" {
		p.scopedRule(scope, c, byValue, msg, plan.Keys{Mode: m, Scope: scope.Path, Collection: c.Path})
		return
	}
	if p.coveredAbove(c.Parent, byValue) == nil && !c.UnderSetItem() {
		p.add(c, plan.Keys{Mode: m, Scope: c.Path, Collection: c.Path}, msg, reasonForbidden, c)
	}
	p.scopedRule(scope, c, byValue, msg, plan.KeyPresence{Mode: m, Scope: scope.Path, Collection: c.Path})
}

// scopedRule hosts a check that must run at every instance of scope
// existing before and after, on scope itself where the apiserver
// correlates it, or on the nearest correlated node above, through every
// pair of scope's instances. byValue says that the check holds wherever
// scope keeps its value as CEL reads it (coveredAbove): then no rule is
// needed, nor inside a set item, which exists before and after only when
// it is equal as a whole.
func (p *planner) scopedRule(scope, target *crd.Node, byValue bool, msg string, check plan.Check) {
	if p.coveredAbove(scope, byValue) != nil || scope.UnderSetItem() {
		return
	}
	host := nearestHostable(scope)
	p.add(host, paired(host, scope, check), msg, reasonForbidden, target)
}

// paired is check read at the node at below host, through every pair of
// at's instances, or check itself where at is the host.
func paired(host, at *crd.Node, check plan.Check) plan.Check {
	if host == at {
		return check
	}
	return plan.Paired{At: at.Path, Body: check}
}

func nearestHostable(n *crd.Node) *crd.Node {
	for !n.Hostable() {
		n = n.Parent
	}
	return n
}
