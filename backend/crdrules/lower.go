package crdrules

import (
	"fmt"
	"slices"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/plan"
)

// Rule is one rule of a version, at its host, and the declarations it
// stands for: one, or several where declarations need the same rule on
// the same node, which the apiserver keys by its text.
type Rule struct {
	Host   decl.Path
	Rule   edit.Rule
	Origin []decl.Declaration
	// Cost is the apiserver's estimate of the rule in the version's
	// schema with its bounds; nil when it was not estimated.
	Cost *Cost
}

// Cost is the apiserver's static estimate of one rule.
type Cost struct {
	// PerCall is the worst-case cost of one evaluation.
	PerCall uint64
	// Cardinality is the worst-case number of evaluations per object.
	Cardinality uint64
	// Total is PerCall times Cardinality, the figure the apiserver holds
	// against its static limits.
	Total uint64
}

// VersionRules are the rules of one version of a plan.
type VersionRules struct {
	// Rules are in the order of plan.Less on their hosts, each host's in
	// the order the plan's checks needed them.
	Rules []Rule
	// Bounds are the bounds the rules need: the maxItems they took from
	// those given, for lists they compare index by index, in schema
	// order; then those that fit them into the CEL cost limits.
	Bounds []plan.Bound
}

// Rules says the checks of pv, the plan of version v, as CRD rules in the
// CEL environment of Kubernetes kube. A declaration whose checks have no
// exact rule is a problem, one per declaration with every reason found,
// placed where the declaration was written; its rules are left out.
func Rules(v *crd.Version, pv plan.Version, kube plan.KubeVersion, opts Options) (*VersionRules, []diag.Diagnostic, error) {
	given := opts.givenMaxItems(pv)
	root, err := v.Tree()
	if err != nil || root == nil {
		return nil, nil, fmt.Errorf("version %s: no structural schema: %v", v.Name, err)
	}
	w := &ruleWriter{
		g:        &exprGen{twoVarComprehensions: kube.Major > 1 || kube.Minor >= 33, givenMaxItems: given},
		root:     root,
		rootPath: v.Root(),
		hosts:    map[*crd.Node]*hosted{},
	}
	byDecl := map[string][]plan.Rule{}
	for _, r := range pv.Rules {
		byDecl[declKey(r.Origin)] = append(byDecl[declKey(r.Origin)], r)
	}
	var problems []diag.Diagnostic
	for _, d := range pv.Declarations {
		if k, _ := decl.KindNamed(d.Ext); k.Modifier() {
			continue
		}
		n := root.Find(d.Path)
		if n == nil {
			return nil, nil, fmt.Errorf("version %s: the plan declares %s, which the schema lacks", v.Name, d.Path)
		}
		errs := []error{hiddenMetadata(n)}
		for _, r := range byDecl[declKey(d)] {
			errs = append(errs, w.write(r))
		}
		if p, refused := refusal(joinReasons(errs...)); refused {
			problems = append(problems, crd.AtDeclaration(d, n.DocPath(w.rootPath), p))
		}
	}
	return &VersionRules{Rules: w.rules(), Bounds: w.g.addedBounds()}, problems, nil
}

// refusal words err, the reasons a declaration's checks have no exact
// rule, as the problem that refuses it.
func refusal(err error) (diag.Diagnostic, bool) {
	if err == nil {
		return diag.Diagnostic{}, false
	}
	if rs, ok := reasonsOf(err); ok {
		return errInexpressible(rs), true
	}
	return diag.Diagnostic{Type: diag.Internal, Detail: err.Error()}, true
}

// ruleWriter writes the checks of one version, in the plan's order.
type ruleWriter struct {
	g        *exprGen
	root     *crd.Node
	rootPath []interface{} // the document path of the schema root
	hosts    map[*crd.Node]*hosted
	// origin is the declaration of the check being written.
	origin decl.Declaration
	// presenceFields lists, by ruleKey, the fields each presence rule
	// stands for (sharePresence).
	presenceFields map[string][]*crd.Node
}

// hosted are the rules of one host, in the order added, with the
// declarations each stands for.
type hosted struct {
	rules   []edit.Rule
	origins [][]decl.Declaration
}

// write writes the check r as rules, and returns every reason it has no
// exact rule.
func (w *ruleWriter) write(r plan.Rule) error {
	host, field := w.root.Find(r.Host), w.root.Find(r.Field)
	if host == nil || field == nil {
		return fmt.Errorf("the plan names %s or %s, which the schema lacks", r.Host, r.Field)
	}
	w.g.formatsAsValues = r.FormatsAsValues
	w.origin = r.Origin
	if c, ok := r.Check.(plan.Unchanged); ok {
		if n := w.root.Find(c.Node); n != host {
			return fmt.Errorf("the value of %s is compared on %s", c.Node, r.Host)
		}
		return w.valueAt(host, r.Message)
	}
	expr, err := w.expr(host, r.Check, "self", "oldSelf")
	if err != nil {
		return ignoreVacuous(err)
	}
	w.add(host, edit.Rule{Rule: expr, Message: r.Message, Reason: r.Reason, FieldPath: fieldPathBetween(host, field)})
	if p, ok := presenceIn(r.Check); ok {
		w.sharePresence(host, expr, field, p.Mode)
	}
	return nil
}

// presenceIn returns the presence check c is or leads to.
func presenceIn(c plan.Check) (plan.Presence, bool) {
	if p, ok := c.(plan.Paired); ok {
		c = p.Body
	}
	p, ok := c.(plan.Presence)
	return p, ok
}

// expr renders check, read at host whose new and old values are x and y.
func (w *ruleWriter) expr(host *crd.Node, check plan.Check, x, y string) (string, error) {
	p, ok := check.(plan.Paired)
	if !ok {
		return w.body(host, check, x, y)
	}
	at := w.root.Find(p.At)
	if at == nil {
		return "", fmt.Errorf("the plan pairs %s, which the schema lacks", p.At)
	}
	return w.g.pairs(host, at, x, y, func(x, y string) (string, error) { return w.body(at, p.Body, x, y) })
}

// body renders check, read at the node at whose new and old values are x
// and y.
func (w *ruleWriter) body(at *crd.Node, check plan.Check, x, y string) (string, error) {
	switch c := check.(type) {
	case plan.Unchanged:
		return w.g.equal(at, x, y)
	case plan.Presence:
		carrier := w.root.Find(c.Of)
		expr, err := presence(c.Mode, x, y, propertyNames(at, carrier), at.NullableEntry())
		return expr, joinReasons(w.g.presenceReadable(carrier), err)
	case plan.Keys:
		coll := w.root.Find(c.Collection)
		return w.g.keys(c.Mode, coll, x, y, propertyNames(at, coll), at.NullableEntry())
	case plan.KeyPresence:
		coll := w.root.Find(c.Collection)
		return keyPresence(c.Mode, x, y, propertyNames(at, coll), at.NullableEntry())
	}
	return w.union(at, check, x)
}

// propertyNames lists the property names from scope down to n; only
// properties lie between a node and its scope.
func propertyNames(scope, n *crd.Node) []string {
	var names []string
	for _, c := range scope.Between(n) {
		names = append(names, c.Name())
	}
	return names
}

// add hosts r on n unless a rule with the same text is already there:
// the apiserver keys x-kubernetes-validations by rule text, and an equal
// text already enforces the same constraint.
func (w *ruleWriter) add(n *crd.Node, r edit.Rule) {
	for _, existing := range n.Schema.XValidations {
		if existing.Rule == r.Rule {
			return
		}
	}
	h := w.hosts[n]
	if h == nil {
		h = &hosted{}
		w.hosts[n] = h
	}
	for i, existing := range h.rules {
		if existing.Rule == r.Rule {
			if !slices.ContainsFunc(h.origins[i], func(d decl.Declaration) bool { return declKey(d) == declKey(w.origin) }) {
				h.origins[i] = append(h.origins[i], w.origin)
			}
			return
		}
	}
	h.rules = append(h.rules, r)
	h.origins = append(h.origins, []decl.Declaration{w.origin})
}

// sharePresence records that rule on host checks the presence of n. Fields
// with one presence carrier get one rule text, which the apiserver keys
// x-kubernetes-validations by, so the rule is hosted once: its message
// names every field it stands for, and its fieldPath their nearest common
// ancestor, so that the error lies on the path of each.
func (w *ruleWriter) sharePresence(host *crd.Node, rule string, n *crd.Node, m plan.Mode) {
	key := ruleKey(host.DocPath(nil), rule)
	if w.presenceFields == nil {
		w.presenceFields = map[string][]*crd.Node{}
	}
	if slices.Contains(w.presenceFields[key], n) {
		return // declared twice to one end: x-kubernetes-mutability and x-kubernetes-update
	}
	fields := append(w.presenceFields[key], n)
	w.presenceFields[key] = fields
	h := w.hosts[host]
	if len(fields) == 1 || h == nil {
		return
	}
	paths := make([]string, len(fields))
	for i, f := range fields {
		paths[i] = f.UserPath()
	}
	for i := range h.rules {
		if h.rules[i].Rule == rule {
			h.rules[i].Message = plan.PresenceMessage(paths, m)
			h.rules[i].FieldPath = fieldPathBetween(host, commonAncestor(fields))
		}
	}
}

// commonAncestor returns the deepest node at or above every one of nodes.
func commonAncestor(nodes []*crd.Node) *crd.Node {
	a := nodes[0]
	for _, n := range nodes[1:] {
		for len(n.Path) > len(a.Path) {
			n = n.Parent
		}
		for len(a.Path) > len(n.Path) {
			a = a.Parent
		}
		for a != n {
			a, n = a.Parent, n.Parent
		}
	}
	return a
}

// rules lists the hosted rules, hosts in schema walk order.
func (w *ruleWriter) rules() []Rule {
	var out []Rule
	w.root.Walk(func(n *crd.Node) {
		h := w.hosts[n]
		if h == nil {
			return
		}
		for i, r := range h.rules {
			out = append(out, Rule{Host: n.Path, Rule: r, Origin: h.origins[i]})
		}
	})
	return out
}

// declKey identifies what a declaration declares: one extension of one
// node of one version.
func declKey(d decl.Declaration) string {
	return pathKey([]interface{}{d.Version, d.Path.String(), d.Ext})
}

// ruleKey identifies a rule by its node and text: the apiserver itself
// keys a node's rules by their text.
func ruleKey(node []interface{}, rule string) string {
	return pathKey(node) + "\x00" + rule
}
