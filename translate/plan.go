package translate

import (
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// The reason every generated rule reports: the update is refused, not the value
// itself (apimachinery's FieldValueForbidden).
const reasonForbidden = "FieldValueForbidden"

// planner turns the declarations of one version schema into rules on hosts.
type planner struct {
	g        *exprGen
	rootPath []interface{} // document path of the schema root
	problems []Problem
	// origin describes the declaration being planned; origins records it
	// for every rule, keyed by ruleKey, so that a rule that cannot be
	// afforded is reported with the declaration it stands for.
	origin  origin
	origins map[string]origin
	// standsFor lists, by ruleKey, every declaration a rule stands for:
	// declarations that need the same rule on the same host share it.
	standsFor map[string][]decl.Declaration
	// presenceFields lists, by ruleKey, the fields each presence rule
	// stands for (sharePresence).
	presenceFields map[string][]*node
	// formatsAsValues: the run compares formatted strings as CEL values
	// (Options.CompareFormatsAsValues).
	formatsAsValues bool
}

// plan generates the rules of every declaration below root, in walk order,
// and stores them on their host nodes.
func (p *planner) plan(root *node) {
	root.walk(func(n *node) {
		if m := n.decl.mutability; m != unset {
			p.declared(n, extMutability, func() error { return p.mutabilityRules(n, m) })
		}
		if m := n.decl.keyMutability; m != unset {
			p.declared(n, extKeyMutability, func() error { return p.keyRules(n, m) })
		}
		if c := n.decl.update; c != 0 {
			p.declared(n, extUpdate, func() error { return p.updateRules(n, c) })
		}
		if us := n.decl.unions; len(us) > 0 {
			p.declared(n, extUnions, func() error { return p.unionRules(n, us) })
		}
	})
}

// updateRules implements x-kubernetes-update on n (semantics.md 9.2) with
// the rules of the KEP values each constraint is part of: NoModify is the
// value rule, NoSet and NoUnset the presence rule, NoAddItem and
// NoRemoveItem the key rule, each with the KEP value whose table row it
// is.
func (p *planner) updateRules(n *node, c decl.Constraints) error {
	var errs []error
	if c.Has(decl.NoModify) && p.coveredAbove(n.parent, p.comparesAsValues(n)) == nil {
		errs = append(errs, p.valueRules(n, c))
	}
	if m := kepValue(c, decl.NoSet, decl.NoUnset); m != unset && n.isProperty() {
		errs = append(errs, p.presenceRule(n, m))
	}
	if m := kepValue(c, decl.NoAddItem, decl.NoRemoveItem); m != unset {
		errs = append(errs, p.keyRules(n, m))
	}
	return joinReasons(errs...)
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

// declared runs gen and records the reasons it found no exact rule, all
// of them, as one problem on the declaration, where it was written.
func (p *planner) declared(n *node, ext string, gen func() error) {
	d := n.declared[ext]
	p.origin = origin{decl: d, node: n.docPath(nil), text: ext + ": " + n.declValue(ext) + " on " + n.declPath()}
	p.g.formatsAsValues = p.comparesAsValues(n)
	err := joinReasons(hiddenMetadata(n), gen())
	if err == nil {
		return
	}
	problem := newProblem(Internal, "%v", err)
	if rs, ok := reasonsOf(err); ok {
		problem = errInexpressible(rs)
	}
	p.problems = append(p.problems, problemAt(d, n.docPath(p.rootPath), problem))
}

// hiddenMetadata refuses a declaration on the metadata of an embedded
// resource other than its name and generateName: the apiserver's CEL
// declares only those two fields of such metadata, so a rule that reads
// labels or annotations there does not compile, and one that compares the
// whole metadata sees only part of it.
func hiddenMetadata(n *node) error {
	for c := n; c.parent != nil; c = c.parent {
		if !c.isProperty() || c.name() != "metadata" || !c.parent.s.XEmbeddedResource {
			continue
		}
		if n.parent == c && (n.name() == "name" || n.name() == "generateName") {
			return nil
		}
		return cannot(ReasonInexact, "%s is in the metadata of the embedded resource at %s, of which the apiserver's CEL sees only name and generateName, so no rule can read it; declare metadata.name, or fields outside metadata",
			n.userPath(), c.parent.userPath())
	}
	return nil
}

// mutabilityRules implements x-kubernetes-mutability on n (semantics.md 3).
func (p *planner) mutabilityRules(n *node, m mutability) error {
	var errs []error
	if p.coveredAbove(n.parent, p.comparesAsValues(n)) == nil {
		errs = append(errs, p.valueRules(n, decl.FieldConstraints))
	}
	if n.isProperty() {
		errs = append(errs, p.presenceRule(n, m))
	}
	if n.isEntry() && m != immutable {
		errs = append(errs, p.keyRules(n.parent, m))
	}
	return joinReasons(errs...)
}

// valueRules makes the value of n immutable (semantics.md 3.1); c, the
// constraints declared with it, chooses the message.
func (p *planner) valueRules(n *node, c decl.Constraints) error {
	if n.underSetItem() {
		return nil
	}
	msg := valueMessage(n, c)
	if n.hostable() {
		return p.valueAt(n, msg)
	}
	host := nearestHostable(n)
	expr, err := p.g.pairs(host, n, "self", "oldSelf", func(x, y string) (string, error) { return p.g.equal(n, x, y) })
	if err != nil {
		return ignoreVacuous(err)
	}
	p.addRule(host, edit.Rule{Rule: expr, Message: msg, Reason: reasonForbidden, FieldPath: fieldPathBetween(host, n)})
	return nil
}

// valueAt makes the value of the correlated node n immutable with rules on n
// and on correlated nodes below it. Where CEL's == is strict on n it is one
// rule:
//
//	self == oldSelf
//
// Otherwise each level checks what its own == would miss (property presence,
// map keys, list-map key order) and lets the apiserver pair the children,
// which costs O(n) where an inline comparison would pair list-map items by
// scanning.
//
// Where CEL cannot compare some part of n, it goes on below as if n were
// compared part by part, to report every reason at once; the rules it
// adds then are never used, since the declaration is refused.
func (p *planner) valueAt(n *node, msg string) error {
	exact, err := p.g.exactEquality(n)
	add := func(expr string) { p.addRule(n, edit.Rule{Rule: expr, Message: msg, Reason: reasonForbidden}) }
	switch {
	case exact:
		add("self == oldSelf")
	case n.listType() == "map":
		order, orderErr := p.g.keyOrder(n, "self", "oldSelf")
		err = joinReasons(err, orderErr)
		if itemsExact, itemsErr := p.g.exactEquality(n.items); itemsErr == nil && itemsExact && listMapEqualityWorks(n) {
			add("self == oldSelf && " + order)
			return err
		}
		if !n.items.hostable() {
			return joinReasons(err, p.valueInline(n, add))
		}
		add(order)
		return joinReasons(err, p.valueAt(n.items, msg))
	case n.isList():
		expr, more := p.g.equal(n, "self", "oldSelf")
		add(expr)
		return joinReasons(err, more)
	case n.isMap() && !n.values.hostable():
		return joinReasons(err, p.valueInline(n, add))
	case n.isMap():
		k := p.g.newVar("k")
		add("size(self) == size(oldSelf) && self.all(" + k + ", " + k + " in oldSelf)")
		return joinReasons(err, p.valueAt(n.values, msg))
	default:
		return joinReasons(err, p.valueAtObject(n, msg, add))
	}
	return err
}

// valueInline compares the whole value of n in one rule, for a collection
// whose entries cannot host rules of their own.
func (p *planner) valueInline(n *node, add func(string)) error {
	expr, err := p.g.equal(n, "self", "oldSelf")
	add(expr)
	return err
}

// valueAtObject compares an object whose == is not strict property by
// property: a property the schema keeps present (keptPresent) is present on
// both sides, so its presence is not tested.
func (p *planner) valueAtObject(n *node, msg string, add func(string)) error {
	var terms []string
	var recurse []*node
	var errs error
	for _, c := range n.props {
		name := c.name()
		x, selErr := sel("self", name)
		y, _ := sel("oldSelf", name)
		exact, err := p.g.exactEquality(c)
		errs = joinReasons(errs, selErr, err)
		switch {
		case exact && keptPresent(c):
			terms = append(terms, x+" == "+y)
		case exact:
			terms = append(terms, "(has("+x+") ? has("+y+") && "+x+" == "+y+" : !has("+y+"))")
		case keptPresent(c):
			recurse = append(recurse, c)
		default:
			terms = append(terms, "has("+x+") == has("+y+")")
			recurse = append(recurse, c)
		}
	}
	if len(terms) > 0 {
		add(strings.Join(terms, " && "))
	}
	for _, c := range recurse {
		errs = joinReasons(errs, p.valueAt(c, msg))
	}
	return errs
}

// presenceRule checks the presence of property n within its scope
// (semantics.md 3.2). The check reads only the chain down to n's presence
// carrier, which is present exactly where n is.
func (p *planner) presenceRule(n *node, m mutability) error {
	scope := n.scope()
	carrier := presenceCarrier(scope, n)
	if carrier == scope {
		return nil // the schema keeps n present: a rule that could never fail would only cost
	}
	names := propertyNames(scope, carrier)
	host, rule, err := p.scopedRule(scope, n, true, presenceMessage([]*node{n}, m), func(x, y string) (string, error) {
		expr, err := presence(m, x, y, names, scope.nullableEntry())
		return expr, joinReasons(p.g.presenceReadable(carrier), err)
	})
	if err != nil || host == nil {
		return err
	}
	p.sharePresence(host, rule, n, m)
	return nil
}

// presenceCarrier returns the property whose presence decides that of n
// wherever scope exists: the nearest of n and its ancestors below scope
// that the schema does not keep present, or scope itself when the schema
// keeps n present all the way up. A property is kept present when it is
// not nullable, its parent is not a nullable entry, and its parent
// requires it or it has a default: the
// apiserver's schema validation refuses an update that removes a required
// property, or sets it to null, before any rule runs, and defaulting
// fills in an absent or null defaulted one wherever its parent is, so
// below the carrier n comes and goes with the carrier.
// Reading the shorter chain matters at runtime: the apiserver's CEL
// rebuilds the map of an object's property schemas on every lookup.
//
// Like every check on stored objects, this holds for objects valid under
// the current schema; an object stored before a property became required
// may lack it.
func presenceCarrier(scope, n *node) *node {
	c := n
	for c != scope && keptPresent(c) {
		c = c.parent
	}
	return c
}

// keptPresent reports whether the schema keeps property c present, and not
// null, wherever its parent exists.
func keptPresent(c *node) bool {
	if !c.isProperty() || c.s.Nullable || c.parent.nullableEntry() {
		// A null entry exists with none of its properties
		// (semantics.md 2.1): what it requires comes and goes with
		// its being null.
		return false
	}
	if c.s.Default.Object != nil {
		return true
	}
	return c.parent.s.ValueValidation != nil && slices.Contains(c.parent.s.ValueValidation.Required, c.name())
}

// sharePresence records that rule on host checks the presence of n. Fields
// with one presence carrier get one rule text, which the apiserver keys
// x-kubernetes-validations by, so the rule is hosted once: its message
// names every field it stands for, and its fieldPath their nearest common
// ancestor, so that the error lies on the path of each.
func (p *planner) sharePresence(host *node, rule string, n *node, m mutability) {
	key := ruleKey(host.docPath(nil), rule)
	if p.presenceFields == nil {
		p.presenceFields = map[string][]*node{}
	}
	if slices.Contains(p.presenceFields[key], n) {
		return // declared twice to one end: x-kubernetes-mutability and x-kubernetes-update
	}
	fields := append(p.presenceFields[key], n)
	p.presenceFields[key] = fields
	if len(fields) == 1 {
		return
	}
	for i := range host.rules {
		if host.rules[i].Rule == rule {
			host.rules[i].Message = presenceMessage(fields, m)
			host.rules[i].FieldPath = fieldPathBetween(host, commonAncestor(fields))
		}
	}
}

// commonAncestor returns the deepest node at or above every one of nodes.
func commonAncestor(nodes []*node) *node {
	a := nodes[0]
	for _, n := range nodes[1:] {
		for len(n.path) > len(a.path) {
			n = n.parent
		}
		for len(a.path) > len(n.path) {
			a = a.parent
		}
		for a != n {
			a, n = a.parent, n.parent
		}
	}
	return a
}

// keyRules checks the keys of collection c (semantics.md 4).
//
// Where c itself is correlated below its scope, the check is split as a
// hand-written one would be: the containment on c, which the apiserver
// runs whenever c exists before and after, and a constant-cost presence
// check on the scope. One rule on the scope would select c from the scope
// in every iteration, which costs more.
func (p *planner) keyRules(c *node, m mutability) error {
	scope := c.scope()
	names := propertyNames(scope, c)
	msg := keysMessage(c, m)
	nullable := scope.nullableEntry()
	// Values equal as CEL values have the same keys, but for sets whose
	// items hold several spellings of one value.
	byValue := !spelledFormatIn(c.items) && !spelledFormatIn(c.values)
	if len(names) == 0 || !c.hostable() || c.listType() == "atomic" {
		_, _, err := p.scopedRule(scope, c, byValue, msg, func(x, y string) (string, error) {
			return p.g.keys(m, c, x, y, names, nullable)
		})
		return err
	}
	var containedErr error
	if p.coveredAbove(c.parent, byValue) == nil && !c.underSetItem() {
		var contained string
		contained, containedErr = p.g.keys(m, c, "self", "oldSelf", nil, false)
		p.addRule(c, edit.Rule{Rule: contained, Message: msg, Reason: reasonForbidden})
	}
	_, _, err := p.scopedRule(scope, c, byValue, msg, func(x, y string) (string, error) {
		return keyPresence(m, x, y, names, nullable)
	})
	return joinReasons(containedErr, err)
}

// scopedRule hosts a check that must run at every instance of scope existing
// before and after, on scope itself where the apiserver correlates it, or on
// the nearest correlated node above, iterating down to scope. It returns the
// host and the rule text, or a nil host where no rule is needed. byValue
// says that the check holds wherever scope keeps its value as CEL reads
// it (coveredAbove).
func (p *planner) scopedRule(scope, target *node, byValue bool, msg string, check func(x, y string) (string, error)) (*node, string, error) {
	if p.coveredAbove(scope, byValue) != nil || scope.underSetItem() {
		return nil, "", nil // the whole scope is equal wherever it exists before and after
	}
	host := nearestHostable(scope)
	expr, err := p.g.pairs(host, scope, "self", "oldSelf", check)
	if err != nil {
		return nil, "", ignoreVacuous(err)
	}
	p.addRule(host, edit.Rule{Rule: expr, Message: msg, Reason: reasonForbidden, FieldPath: fieldPathBetween(host, target)})
	return host, expr, nil
}

func ignoreVacuous(err error) error {
	if err == errVacuous {
		return nil
	}
	return err
}

func nearestHostable(n *node) *node {
	for !n.hostable() {
		n = n.parent
	}
	return n
}

// propertyNames lists the property names from scope down to n; only
// properties lie between a node and its scope.
func propertyNames(scope, n *node) []string {
	var names []string
	for _, c := range pathBetween(scope, n) {
		names = append(names, c.name())
	}
	return names
}

// addRule hosts r on n unless a rule with the same text is already there:
// the apiserver keys x-kubernetes-validations by rule text, and an equal text
// already enforces the same constraint. Not so for a policy's rule, which
// reads the stored JSON where the CRD's own reads typed values (a list
// map's == ignores order there, not here).
func (p *planner) addRule(n *node, r edit.Rule) {
	for _, existing := range n.s.XValidations {
		if existing.Rule == r.Rule && !p.g.plainValues {
			return
		}
	}
	key := ruleKey(n.docPath(nil), r.Rule)
	for _, existing := range n.rules {
		if existing.Rule == r.Rule {
			p.standFor(key)
			return
		}
	}
	n.rules = append(n.rules, r)
	if p.origins == nil {
		p.origins = map[string]origin{}
	}
	p.origins[key] = p.origin
	p.standFor(key)
}

// standFor records that the rule keyed key stands for the declaration
// being planned too.
func (p *planner) standFor(key string) {
	if p.standsFor == nil {
		p.standsFor = map[string][]decl.Declaration{}
	}
	d := p.origin.decl
	for _, have := range p.standsFor[key] {
		if declKey(have) == declKey(d) {
			return
		}
	}
	p.standsFor[key] = append(p.standsFor[key], d)
}

// declValue is the value n declares for ext.
func (n *node) declValue(ext string) string {
	switch ext {
	case extKeyMutability:
		return string(n.decl.keyMutability)
	case extUpdate:
		return n.decl.update.String()
	case extUnions:
		return decl.UnionsText(n.decl.unions)
	}
	return string(n.decl.mutability)
}

// declPath renders n's path in the notation of the declarations
// annotation.
func (n *node) declPath() string { return n.path.String() }
