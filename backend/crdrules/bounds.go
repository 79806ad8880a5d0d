package crdrules

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/plan"
)

// origin is the declaration a generated rule stands for.
type origin struct {
	decl decl.Declaration
	node []interface{} // schema-relative document path of the declared node
	text string        // "x-kubernetes-mutability: Immutable on .spec.a"
}

// costResult is what costest said of one version schema with its rules.
type costResult struct {
	found []costest.NeededBound
	reach *costest.Reach
	err   error
}

// addBounds adds to the plan of version v the maxLength, maxItems and
// maxProperties the generated rules need to pass the apiserver's static
// cost limits (costest.Bounds says which and why), gives each rule its
// estimated cost, and reports how far the rules are sure to stay within
// the runtime limits. With NoBounds it reports each needed bound as a
// problem instead.
func addBounds(v *crd.Version, pv *plan.Version, vr *VersionRules, target plan.KubeVersion, opts Options, memo map[string]costResult) ([]AddedBound, []diag.Diagnostic, []diag.Diagnostic) {
	rootPath := v.Root()
	given := vr.Bounds // the maxItems given for lists compared by index
	s, problems := schemaWithRules(v, pv, vr)
	if s == nil {
		return nil, problems, nil
	}
	env := kube.NewRuleEnvSet(target.Minor)
	floor := opts.floorIn(pv)
	// Versions often share one schema (v1 and v1beta1 of Gateway API):
	// their rules, and so their bounds, are the same.
	c, seen := memo[s.key]
	if !seen {
		c.found, c.err = costest.Bounds(s.props, env, costest.BoundOptions{
			Selected: s.generated,
			Explicit: map[string]int64{costest.MaxLength: opts.MaxLength, costest.MaxItems: opts.MaxItems, costest.MaxProperties: opts.MaxProperties},
			Floor:    floor,
		})
		memo[s.key] = c
	}
	found, err := c.found, c.err
	var unfit *costest.UnfitError
	switch {
	case errors.As(err, &unfit):
		return nil, unfitProblems(unfit, originsOf(v, vr), rootPath, opts), nil
	case err != nil:
		return nil, []diag.Diagnostic{newProblem(diag.Internal, "estimating rule costs: %v", err).At(rootPath)}, nil
	}
	bounds := boundsOf(v, vr, given, found)
	if opts.NoBounds {
		return nil, neededBounds(bounds), nil
	}
	for _, b := range found {
		costest.SetBound(s.props, b)
	}
	if c.reach == nil {
		c.reach, c.err = costest.RuntimeReach(s.props, env, s.generated, floor)
		memo[s.key] = c
	}
	reach, err := c.reach, c.err
	if err != nil {
		return nil, []diag.Diagnostic{newProblem(diag.Internal, "estimating rule costs: %v", err).At(rootPath)}, nil
	}
	setCosts(vr, reach.Costs)
	return bounds, nil, reachWarnings(reach, v.Name, rootPath)
}

// ruleSchema is a version schema with the generated rules in it, as the
// cost estimate reads it.
type ruleSchema struct {
	props *apiextensionsv1.JSONSchemaProps
	// generated tells the generated rules from those the CRD has.
	generated func(costest.Cost) bool
	// key is the schema as JSON: versions with the same key have the
	// same bounds and reach.
	key string
}

// schemaWithRules writes the plan and rules of version v into its
// schema; nil, with the problem if any, when there is nothing to
// estimate.
func schemaWithRules(v *crd.Version, pv *plan.Version, vr *VersionRules) (*ruleSchema, []diag.Diagnostic) {
	rootPath := v.Root()
	edits, err := VersionEdits(v, *pv, vr)
	if err != nil {
		return nil, []diag.Diagnostic{newProblem(diag.Internal, "%v", err).At(rootPath)}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	props, generated, err := withRules(v.Raw, rootPath, edits)
	if err != nil {
		return nil, []diag.Diagnostic{newProblem(diag.Invalid, "%v", err).At(rootPath)}
	}
	key, err := json.Marshal(props)
	if err != nil {
		return nil, []diag.Diagnostic{newProblem(diag.Internal, "%v", err).At(rootPath)}
	}
	return &ruleSchema{props: props, generated: generated, key: string(key)}, nil
}

// boundsOf lists the bounds of version v: the maxItems given for lists
// the rules compare by index, then those found, which join the plan's
// bounds in vr.
func boundsOf(v *crd.Version, vr *VersionRules, given []plan.Bound, found []costest.NeededBound) []AddedBound {
	rootPath, version := v.Root(), v.Name
	var bounds []AddedBound
	for _, b := range given {
		node, _ := v.Node(b.Node)
		bounds = append(bounds, AddedBound{Path: node, Version: version, Node: b.Node.String(), Keyword: b.Keyword, Value: b.Value, Indexed: true})
	}
	for _, b := range found {
		steps := toSteps(b.Node)
		bounds = append(bounds, AddedBound{Path: append(append([]interface{}{}, rootPath...), steps...),
			Version: version, Node: decl.PathOf(steps).String(), Keyword: b.Keyword, Value: b.Value})
		vr.Bounds = append(vr.Bounds, plan.Bound{Node: decl.PathOf(steps), Keyword: b.Keyword, Value: b.Value})
	}
	return bounds
}

// setCosts gives every rule of vr its estimate among costs.
func setCosts(vr *VersionRules, costs []costest.Cost) {
	byRule := map[string]*Cost{}
	for _, c := range costs {
		byRule[decl.PathOf(toSteps(c.Node)).String()+"\x00"+c.Expression] = &Cost{PerCall: c.PerCall, Cardinality: c.Cardinality, Total: c.Total}
	}
	for i, r := range vr.Rules {
		vr.Rules[i].Cost = byRule[r.Host.String()+"\x00"+r.Rule.Rule]
	}
}

// originsOf tells, by ruleKey, the declaration each rule of vr was
// written for first, so that a rule over the cost limits is reported with
// it.
func originsOf(v *crd.Version, vr *VersionRules) map[string]origin {
	tree, _ := v.Tree()
	out := map[string]origin{}
	for _, r := range vr.Rules {
		d := r.Origin[0]
		n, host := tree.Find(d.Path), tree.Find(r.Host)
		out[ruleKey(host.DocPath(nil), r.Rule.Rule)] = origin{decl: d, node: n.DocPath(nil), text: d.Ext + ": " + canonicalValue(d) + " on " + d.Path.String()}
	}
	return out
}

// canonicalValue is the value of d as the compiler reads it, in the
// notation of the annotation.
func canonicalValue(d decl.Declaration) string {
	switch d.Ext {
	case decl.ExtUpdate:
		c, _ := decl.ParseConstraints(d.Value)
		return c.String()
	case decl.ExtUnions:
		us, _ := decl.ParseUnionsText(d.Value)
		return decl.UnionsText(us)
	}
	return d.Value
}

// withRules is the version schema raw, at rootPath, without declarations
// and with the generated rules of edits, and a predicate telling the
// generated rules.
func withRules(raw map[string]interface{}, rootPath []interface{}, edits []edit.Edit) (*apiextensionsv1.JSONSchemaProps, func(costest.Cost) bool, error) {
	var rels []edit.Edit
	generated := map[string]bool{}
	for _, e := range edits {
		// Set holds the maxItems given for lists the rules compare by
		// index (givenbounds.go): the estimate must see them.
		rel := edit.Edit{Path: e.Path[len(rootPath):], AddRules: e.AddRules, Set: e.Set}
		rels = append(rels, rel)
		for _, r := range e.AddRules {
			generated[ruleKey(rel.Path, r.Rule)] = true
		}
	}
	schema, err := edit.Apply(raw, rels)
	if err != nil {
		return nil, nil, err
	}
	props, err := crd.TypedSchema(schema)
	if err != nil {
		return nil, nil, err
	}
	return props, func(c costest.Cost) bool {
		return c.Kind == costest.KindRule && generated[ruleKey(toSteps(c.Node), c.Expression)]
	}, nil
}

// neededBounds reports, for --no-bounds, every bound the rules need.
func neededBounds(bounds []AddedBound) []diag.Diagnostic {
	problems := make([]diag.Diagnostic, len(bounds))
	for i, b := range bounds {
		problems[i] = withHint(newProblem(diag.Required, "the generated rules need %s: %d (or smaller) here to pass the CEL cost limits; add it", b.Keyword, b.Value).At(b.Path), diag.HintBounds)
	}
	return problems
}

// unfitProblems refuse a version whose generated rules do not fit even
// with every bound at its floor: one problem for each declaration whose
// rules are over the limits, naming every such rule, in a few short
// lines: the declaration, each rule and the limit, the nodes that make
// most of its cost, and what to do. Several rules are the problem's
// Reasons.
func unfitProblems(e *costest.UnfitError, origins map[string]origin, rootPath []interface{}, opts Options) []diag.Diagnostic {
	var keys []string
	byDecl := map[string][]costest.UnfitRule{}
	declOf := map[string]*origin{}
	for _, r := range e.Rules {
		key := ""
		if o, ok := origins[ruleKey(toSteps(r.Cost.Node), r.Cost.Expression)]; ok {
			key = o.text + "\x00" + pathKey(o.node)
			declOf[key] = &o
		}
		if byDecl[key] == nil {
			keys = append(keys, key)
		}
		byDecl[key] = append(byDecl[key], r)
	}
	problems := make([]diag.Diagnostic, len(keys))
	for i, key := range keys {
		problems[i] = unfitProblem(e, byDecl[key], declOf[key], rootPath, opts)
	}
	return problems
}

// unfitProblem refuses the declaration o (nil when unknown) for rules,
// the rules it stands for that do not fit.
func unfitProblem(e *costest.UnfitError, rules []costest.UnfitRule, o *origin, rootPath []interface{}, opts Options) diag.Diagnostic {
	var b strings.Builder
	b.WriteString("the generated rules do not fit the apiserver's CEL cost limits")
	if len(e.Tried) > 0 {
		b.WriteString(", even with the bounds mut2cel may add at their floors")
	}
	if len(rules) > 1 {
		fmt.Fprintf(&b, ": %d rules are over the %s limit %d", len(rules), costest.PerExpressionLimit.Name, costest.PerExpressionLimit.Value)
	}
	if o != nil {
		fmt.Fprintf(&b, "\n  declaration: %s", o.text)
	}
	var lines []string
	for _, r := range rules {
		lines = append(lines, unfitRuleLines(e, r, len(rules) == 1))
	}
	if len(rules) == 1 {
		b.WriteString("\n  " + lines[0])
	}
	these := "these nodes"
	if len(rules) > 1 {
		these = "the nodes named below"
	}
	fmt.Fprintf(&b, "\n  to fix: declare a smaller part of the schema, or give %s smaller bounds: in the schema, as maxItems, maxLength or maxProperties of the field in a declarations file, or as a run-wide floor", these)
	hint := diag.HintBoundFloor // the command words how to give one
	if opts.MaxLength > 0 || opts.MaxItems > 0 || opts.MaxProperties > 0 {
		hint = diag.HintBoundCeilings
	}
	problem := withHint(newProblem(diag.Forbidden, "%s", b.String()).At(rootPath), hint)
	if len(rules) > 1 {
		problem.Reasons = lines
	}
	if o != nil {
		problem = crd.AtDeclaration(o.decl, append(append([]interface{}{}, rootPath...), o.node...), problem)
	}
	problem.Reason = diag.ReasonCost
	return problem
}

// unfitRuleLines says what rule r costs and the nodes that make most of
// its cost: alone, on two lines and with the limit it crosses; among
// several, on one line under a heading that names the limit.
func unfitRuleLines(e *costest.UnfitError, r costest.UnfitRule, alone bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule on %s costs %d", decl.PathOf(toSteps(r.Cost.Node)).String(), r.Cost.Total)
	if alone && len(e.Exceeded) > 0 {
		x := e.Exceeded[0]
		fmt.Fprintf(&b, ", over the %s limit %d", x.Limit.Name, x.Limit.Value)
	}
	if len(r.Dominant) > 0 {
		parts := make([]string, len(r.Dominant))
		for i, d := range r.Dominant {
			parts[i] = fmt.Sprintf("%s (%s %d)", decl.PathOf(toSteps(d.Node)).String(), d.Keyword, d.Value)
		}
		sep := "; "
		if alone {
			sep = "\n  "
		}
		fmt.Fprintf(&b, "%smost of its cost comes from %s", sep, strings.Join(parts, ", "))
	}
	return b.String()
}

// reachWarnings tell, in one line, how large objects may grow before a
// generated rule may be cancelled at run time (docs/cost.md).
func reachWarnings(r *costest.Reach, version string, rootPath []interface{}) []diag.Diagnostic {
	if !r.Exceeds() {
		return nil
	}
	detail := fmt.Sprintf("on the largest objects the schema allows, the generated rules would cost more than the runtime limits (%s)", r.Worst())
	if r.Within {
		detail += "\n  they stay within them while " + r.Sizes() + "; beyond, the apiserver may cancel them and reject the update (docs/cost.md)"
	} else {
		detail += "\n  the estimate does not shrink with the object's size (rules that enumerate list indices, below 1.33, cost what maxItems allows), so no safe size can be given (docs/cost.md)"
	}
	return []diag.Diagnostic{{Path: rootPath, Detail: detail, RenderedPath: "version " + version}} // a warning: no type
}
