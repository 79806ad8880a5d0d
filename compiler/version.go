package compiler

import (
	"errors"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// compileVersion compiles the declarations of one version into its plan; nil for a version without a schema, or a second version
// of one name, which readState reports.
func compileVersion(v *crd.Version, st *state, decls []decl.Declaration, given givenBounds, opts Options) (*plan.Version, []Problem) {
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
			return nil, []Problem{NewProblem(Internal, "%s is in the schema but not in its structural form", d.Path).At(st.node(d))}
		}
		p.declare(n, d)
	}
	p.plan(tree)
	pv.Declarations = p.declarations(tree)
	pv.Rules = p.rules
	pv.Given = given.in(tree, v.Name)
	pv.Collections = unionCollections(tree, pv.Declarations)
	return pv, nil
}

// schemaProblem words the error of a version schema the apiserver's types
// cannot hold or that is not structural.
func schemaProblem(err error, rootPath []interface{}) Problem {
	var se *crd.SchemaError
	switch {
	case !errors.As(err, &se):
		return NewProblem(Internal, "%v", err).At(rootPath)
	case se.NotStructural:
		return NewProblem(Invalid, "the schema is not structural, as the apiserver requires: %v", se.Err).At(rootPath)
	}
	return NewProblem(Invalid, "%v", se.Err).At(rootPath)
}

func toSteps(keys []string) []interface{} {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}
