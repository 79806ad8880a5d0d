package translate

import (
	"fmt"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// Bounds a declarations file gives (decl.Field.Bounds), for CRDs whose
// schema the user cannot change (docs/translation.md, "Bounds"). Each
// acts for its CRD as Options.NodeFloors does for the run: the value of
// a bound the compiler must add on that node to fit the cost limits. A
// maxItems given also lets a list be compared index by index below
// Kubernetes 1.33, where the compiler enumerates its indices up to
// maxItems (exprGen.indexPairs); the list then gets that maxItems, a
// bound reported like any other. A per-node floor given for the run wins
// over a file's, as the run's options win over the files for the target.

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
		p := newProblem(NotFound, "no such node in the schema of CRD %s%s (check the path of the bound)", st.name, near)
		p.Where = fmt.Sprintf("version %s, %s", v, f.Path)
		return []Problem{inSource(p, f.Source)}
	}
	var problems []Problem
	for _, kw := range sortedNames(f.Bounds) {
		if t, _ := node["type"].(string); t != boundTypes[kw] {
			p := newProblem(Invalid, "%s: %d: bounds a schema node of type %s, and this one is of type %q", kw, f.Bounds[kw], boundTypes[kw], t)
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

// boundIn is the bound given for keyword on the node at path of version:
// the run's per-node floor, else a declarations file's; 0 when none is.
func (o Options) boundIn(version, path, keyword string) int64 {
	if v := o.NodeFloors[path][keyword]; v > 0 {
		return v
	}
	return o.given[version][path][keyword]
}

// floorIn is the floor of the bounds the compiler adds in version: the
// bound given for the node, else the floor given for the keyword, else 0
// for costest's default.
func (o Options) floorIn(version string) func(node []string, keyword string) int64 {
	return func(node []string, keyword string) int64 {
		if v := o.boundIn(version, decl.PathOf(toSteps(node)).String(), keyword); v > 0 {
			return v
		}
		return o.BoundFloors[keyword]
	}
}

// givenMaxItems lists the maxItems given for the lists of version.
func (o Options) givenMaxItems(version string) map[string]int64 {
	out := map[string]int64{}
	for path, kws := range o.given[version] {
		if v := kws["maxItems"]; v > 0 {
			out[path] = v
		}
	}
	for path, kws := range o.NodeFloors {
		if v := kws["maxItems"]; v > 0 {
			out[path] = v
		}
	}
	return out
}
