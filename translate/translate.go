package translate

import (
	"errors"

	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// compiled is what compileVersions makes of a document: the plan, and
// what the cost estimate found on the way.
type compiled struct {
	plan     *plan.Plan
	bounds   []Bound
	warnings []Problem
}

// compileVersions compiles decls, the declarations gathered from every
// front end, into the plan of doc, version by version. Only when validate
// is set and nothing failed is the plan, written into doc by the CRD back
// end, validated as the apiserver would: a partial translation would fail
// for reasons already reported.
func compileVersions(doc map[string]interface{}, st *state, decls []decl.Declaration, validate bool, opts Options) (*compiled, error) {
	if opts.KubeVersion.IsZero() {
		opts.KubeVersion = DefaultKubeVersion
	}
	model := readCRD(doc)
	c := &compiled{plan: &plan.Plan{KubeVersion: plan.KubeVersion(opts.KubeVersion), RecordKubeVersion: opts.KubeVersion != DefaultKubeVersion, CRD: plan.CRD{
		Name: model.Name, Group: model.Group, Kind: model.Kind, Plural: model.Plural, Scope: model.Scope}}}
	var problems []Problem
	memo := map[string]costResult{}
	for _, v := range model.Versions {
		pv, origins, p := compileVersion(v, st, decls, opts)
		if len(p) == 0 && pv != nil && !opts.ForPolicies {
			var b []Bound
			var w []Problem
			b, p, w = addBounds(v, pv, origins, opts, memo)
			c.bounds = append(c.bounds, b...)
			c.warnings = append(c.warnings, w...)
		}
		if pv != nil {
			c.plan.Versions = append(c.plan.Versions, *pv)
		}
		problems = append(problems, p...)
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: problems}
	}
	written := c.plan
	if opts.ForPolicies {
		// The rules are not the CRD's: what is validated is the CRD
		// itself, which must be one the apiserver serves.
		written = withoutRules(c.plan)
	}
	edits, err := crdrules.Edits(model, written)
	if err != nil {
		return nil, internalError(err)
	}
	if validate && len(edits) > 0 {
		out, err := edit.Apply(doc, edits)
		if err != nil {
			return nil, internalError(err)
		}
		if problems := validateOutput(out, edits, opts); len(problems) > 0 {
			return nil, &Error{Problems: problems}
		}
	}
	return c, nil
}

// compileVersion compiles the declarations of one version into its plan,
// without bounds; nil for a version without a schema, or a second version
// of one name, which readState reports.
func compileVersion(v *crd.Version, st *state, decls []decl.Declaration, opts Options) (*plan.Version, map[string]origin, []Problem) {
	rootPath := v.Root()
	if v.Raw == nil || !st.crd.First(v) {
		return nil, nil, nil
	}
	pv := &plan.Version{Name: v.Name, Served: v.Served, Storage: v.Storage}
	var mine []decl.Declaration
	for _, d := range decls {
		if d.Version == v.Name {
			mine = append(mine, d)
		}
	}
	if len(mine) == 0 {
		return pv, nil, nil
	}
	s, err := v.Structural()
	if err != nil {
		return nil, nil, []Problem{schemaProblem(err, rootPath)}
	}
	tree := buildTree(s)
	for _, d := range mine {
		n := tree.find(d.Path)
		if n == nil {
			return nil, nil, []Problem{newProblem(Internal, "%s is in the schema but not in its structural form", d.Path).At(st.node(d))}
		}
		n.addDeclaration(d)
	}
	g := &exprGen{twoVarComprehensions: !opts.KubeVersion.Less(KubeVersion{1, 33}), givenMaxItems: opts.givenMaxItems(v.Name), plainValues: opts.ForPolicies}
	p := &planner{g: g, rootPath: rootPath, formatsAsValues: opts.CompareFormatsAsValues}
	p.plan(tree)
	if len(p.problems) > 0 {
		return nil, nil, p.problems
	}
	fillVersion(pv, tree, p.standsFor)
	pv.Bounds = g.addedBounds() // the maxItems given for lists compared by index
	return pv, p.origins, nil
}

// fillVersion lists, in schema walk order, the declarations of every
// node and the rules it hosts, each with the declarations it stands for.
func fillVersion(pv *plan.Version, root *node, standsFor map[string][]decl.Declaration) {
	root.walk(func(n *node) {
		for _, ext := range decl.Extensions {
			if d, ok := n.declared[ext]; ok {
				pv.Declarations = append(pv.Declarations, d)
			}
		}
		for _, r := range n.rules {
			pv.Rules = append(pv.Rules, plan.Rule{Host: n.path, Rule: r, Origin: standsFor[ruleKey(n.docPath(nil), r.Rule)]})
		}
	})
}

// schemaProblem words the error of a version schema the apiserver's types
// cannot hold or that is not structural.
func schemaProblem(err error, rootPath []interface{}) Problem {
	var se *crd.SchemaError
	switch {
	case !errors.As(err, &se):
		return newProblem(Internal, "%v", err).At(rootPath)
	case se.NotStructural:
		return newProblem(Invalid, "the schema is not structural, as the apiserver requires: %v", se.Err).At(rootPath)
	}
	return newProblem(Invalid, "%v", se.Err).At(rootPath)
}

func toSteps(keys []string) []interface{} {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}

// withoutRules copies p without its rules and bounds.
func withoutRules(p *plan.Plan) *plan.Plan {
	out := *p
	out.Versions = make([]plan.Version, len(p.Versions))
	for i, v := range p.Versions {
		v.Rules, v.Bounds = nil, nil
		out.Versions[i] = v
	}
	return &out
}
