package translate

import (
	"errors"

	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// compiled is what compileVersions makes of a document: the plan, the
// CRD rules its checks are written as, and what the cost estimate found
// on the way.
type compiled struct {
	plan     *plan.Plan
	rules    map[string]*crdrules.VersionRules // by version name
	bounds   []Bound
	warnings []Problem
}

// compileVersions compiles decls, the declarations gathered from every
// front end, into the plan of doc, version by version, and has the CRD
// back end write each version's checks as rules. Only when validate is
// set and nothing failed is the plan, written into doc by the CRD back
// end, validated as the apiserver would: a partial translation would fail
// for reasons already reported.
func compileVersions(doc map[string]interface{}, st *state, decls []decl.Declaration, validate bool, opts Options) (*compiled, error) {
	if opts.KubeVersion.IsZero() {
		opts.KubeVersion = DefaultKubeVersion
	}
	model := readCRD(doc)
	c := &compiled{rules: map[string]*crdrules.VersionRules{}, plan: &plan.Plan{KubeVersion: plan.KubeVersion(opts.KubeVersion), RecordKubeVersion: opts.KubeVersion != DefaultKubeVersion, CRD: plan.CRD{
		Name: model.Name, Group: model.Group, Kind: model.Kind, Plural: model.Plural, Scope: model.Scope}}}
	var problems []Problem
	memo := map[string]costResult{}
	for _, v := range model.Versions {
		pv, p := compileVersion(v, st, decls, opts)
		if pv == nil {
			problems = append(problems, p...)
			continue
		}
		var vr *crdrules.VersionRules
		if len(pv.Declarations) > 0 {
			var written []Problem
			var err error
			vr, written, err = crdrules.Rules(v, *pv, plan.KubeVersion(opts.KubeVersion), crdrules.Options{PlainValues: opts.ForPolicies, GivenMaxItems: pv.GivenMaxItems()})
			if err != nil {
				return nil, internalError(err)
			}
			p = append(p, written...)
			c.rules[v.Name] = vr
			pv.Bounds = vr.Bounds // the maxItems given for lists compared by index
		}
		if len(p) == 0 && vr != nil && !opts.ForPolicies {
			var b []Bound
			var w []Problem
			b, p, w = addBounds(v, pv, vr, opts, memo)
			c.bounds = append(c.bounds, b...)
			c.warnings = append(c.warnings, w...)
		}
		c.plan.Versions = append(c.plan.Versions, *pv)
		problems = append(problems, p...)
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: problems}
	}
	written := c.rules
	if opts.ForPolicies {
		// The rules are not the CRD's: what is validated is the CRD
		// itself, which must be one the apiserver serves.
		written = nil
	}
	edits, err := crdrules.Edits(model, c.plan, written)
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
func compileVersion(v *crd.Version, st *state, decls []decl.Declaration, opts Options) (*plan.Version, []Problem) {
	rootPath := v.Root()
	if v.Raw == nil || !st.crd.First(v) {
		return nil, nil
	}
	pv := &plan.Version{Name: v.Name, Served: v.Served, Storage: v.Storage}
	var mine []decl.Declaration
	for _, d := range decls {
		if d.Version == v.Name {
			mine = append(mine, d)
		}
	}
	if len(mine) == 0 {
		return pv, nil
	}
	tree, err := v.Tree()
	if err != nil {
		return nil, []Problem{schemaProblem(err, rootPath)}
	}
	p := &planner{formatsAsValues: opts.CompareFormatsAsValues}
	for _, d := range mine {
		n := tree.Find(d.Path)
		if n == nil {
			return nil, []Problem{newProblem(Internal, "%s is in the schema but not in its structural form", d.Path).At(st.node(d))}
		}
		p.declare(n, d)
	}
	p.plan(tree)
	pv.Declarations = p.declarations(tree)
	pv.Rules = p.rules
	pv.Given = givenMaxItemsIn(tree, opts.givenMaxItems(v.Name))
	return pv, nil
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

// givenMaxItemsIn lists the maxItems given for the lists of tree, in schema
// order.
func givenMaxItemsIn(tree *crd.Node, given map[string]int64) []plan.Bound {
	var out []plan.Bound
	tree.Walk(func(n *crd.Node) {
		if v, ok := given[n.Path.String()]; ok {
			out = append(out, plan.Bound{Node: n.Path, Keyword: "maxItems", Value: v})
		}
	})
	return out
}
