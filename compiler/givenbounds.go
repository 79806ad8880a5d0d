package compiler

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// Bounds a declarations file gives (decl.Field.Bounds), for CRDs whose
// schema the user cannot change (docs/translation.md, "Bounds"). The
// compiler reads them into the plan (plan.Version.Given); the CRD back
// end takes each as the value of a bound it must add on that node to fit
// the cost limits, and a maxItems given as the number of indices it
// enumerates to compare a list index by index below Kubernetes 1.33.

// givenBounds holds the bounds of the files by version name, then path
// (decl.Path.String), then keyword.
type givenBounds map[string]map[string]map[string]int64

// boundTypes is the schema type each keyword bounds.
var boundTypes = map[string]string{"maxItems": "array", "maxLength": "string", "maxProperties": "object"}

// readGivenBounds takes the bounds of the sets that name the CRD of st,
// for the versions each set names or else every served version. A bound
// on a node the schema lacks, or of a keyword its type does not take, is
// a problem at its line.
func readGivenBounds(st *state, sets []decl.Set) (givenBounds, []Problem) {
	given := givenBounds{}
	var problems []Problem
	var served []string
	for _, v := range servedVersions(st) {
		served = append(served, v.name)
	}
	for _, s := range sets {
		if s.CRD != st.name {
			continue
		}
		versions := served
		if len(s.Versions) > 0 {
			versions = nil
			for _, v := range s.Versions {
				if st.withSchema(v.Name) != nil {
					versions = append(versions, v.Name) // gather reports the others
				}
			}
		}
		for _, f := range s.Fields {
			for _, v := range versions {
				problems = append(problems, given.add(st, v, f)...)
			}
		}
	}
	return given, problems
}

// add takes the bounds of field f for version v.
func (g givenBounds) add(st *state, v string, f decl.Field) []Problem {
	if len(f.Bounds) == 0 {
		return nil
	}
	raw := st.withSchema(v).Raw
	node, ok := st.crd.NodeAt(crd.Location{Version: v, Path: f.Path})
	if !ok {
		var near string
		if p, ok := f.Path.Nearest(raw); ok {
			near = fmt.Sprintf("; did you mean %s?", p)
		}
		p := NewProblem(NotFound, "no such node in the schema of CRD %s%s (check the path of the bound)", st.name, near)
		p.Where = fmt.Sprintf("version %s, %s", v, f.Path)
		return []Problem{inSource(p, f.Source)}
	}
	var problems []Problem
	for _, kw := range slices.Sorted(maps.Keys(f.Bounds)) {
		if t, _ := node["type"].(string); t != boundTypes[kw] {
			p := NewProblem(Invalid, "%s: %d: bounds a schema node of type %s, and this one is of type %q", kw, f.Bounds[kw], boundTypes[kw], t)
			p.Where = fmt.Sprintf("version %s, %s", v, f.Path)
			problems = append(problems, inSource(p, f.Source))
			continue
		}
		path := f.Path.String()
		if g[v] == nil {
			g[v] = map[string]map[string]int64{}
		}
		if g[v][path] == nil {
			g[v][path] = map[string]int64{}
		}
		if have, ok := g[v][path][kw]; !ok || f.Bounds[kw] < have {
			g[v][path][kw] = f.Bounds[kw] // two files: the smaller holds for both
		}
	}
	return problems
}

// in lists the bounds given for the nodes of tree, the schema of
// version, in schema order, each node's keywords in name order.
func (g givenBounds) in(tree *crd.Node, version string) []plan.Bound {
	var out []plan.Bound
	tree.Walk(func(n *crd.Node) {
		kws := g[version][n.Path.String()]
		for _, kw := range slices.Sorted(maps.Keys(kws)) {
			out = append(out, plan.Bound{Node: n.Path, Keyword: kw, Value: kws[kw]})
		}
	})
	return out
}
