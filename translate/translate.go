package translate

import (
	"encoding/json"
	"errors"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// translate compiles decls, the declarations gathered from every front
// end, into rules on doc, version by version. The output is validated as
// the apiserver would only when validate is set and nothing failed: a
// partial translation would fail for reasons already reported.
func translate(doc map[string]interface{}, st *state, decls []decl.Declaration, validate bool, opts Options) (*Result, error) {
	if opts.KubeVersion.IsZero() {
		opts.KubeVersion = DefaultKubeVersion
	}
	model := readCRD(doc)
	var edits []edit.Edit
	var bounds []Bound
	var problems, warnings []Problem
	memo := map[string]costResult{}
	for _, v := range model.Versions {
		e, origins, p := translateVersion(v, st, decls, opts)
		if len(p) == 0 {
			var b []Bound
			var w []Problem
			e, b, p, w = addBounds(v, e, origins, opts, memo)
			bounds = append(bounds, b...)
			warnings = append(warnings, w...)
		}
		edits = append(edits, e...)
		problems = append(problems, p...)
	}
	var out map[string]interface{}
	if len(problems) == 0 {
		var err error
		if out, err = edit.Apply(doc, edits); err != nil {
			return nil, internalError(err)
		}
		if validate && len(edits) > 0 {
			problems = validateOutput(out, edits, opts)
		}
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: problems}
	}
	return &Result{Edits: edits, Translated: out, Bounds: bounds, Warnings: warnings}, nil
}

// translateVersion compiles the declarations of one version.
func translateVersion(v *crd.Version, st *state, decls []decl.Declaration, opts Options) ([]edit.Edit, map[string]origin, []Problem) {
	rootPath := v.Root()
	if v.Raw == nil || st.roots[v.Name] == nil || !st.first(v) {
		return nil, nil, nil // no schema, or a duplicate name readState reports
	}
	var mine []decl.Declaration
	for _, d := range decls {
		if d.Version == v.Name {
			mine = append(mine, d)
		}
	}
	if len(mine) == 0 {
		return nil, nil, nil
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
	p := &planner{g: &exprGen{twoVarComprehensions: !opts.KubeVersion.Less(KubeVersion{1, 33})}, rootPath: rootPath}
	p.plan(tree)
	if len(p.problems) > 0 {
		return nil, nil, p.problems
	}
	return versionEdits(tree, rootPath), p.origins, nil
}

// versionEdits lists, in schema walk order, the declarations written in
// the schema to remove and the rules to append on every node that has
// either.
func versionEdits(root *node, rootPath []interface{}) []edit.Edit {
	var edits []edit.Edit
	root.walk(func(n *node) {
		var e edit.Edit
		for _, ext := range decl.Extensions {
			if d, ok := n.declared[ext]; ok && d.Origin.Kind == decl.InSchema {
				e.Remove = append(e.Remove, ext)
			}
		}
		e.AddRules = n.rules
		if len(e.Remove) > 0 || len(e.AddRules) > 0 {
			e.Path = n.docPath(rootPath)
			edits = append(edits, e)
		}
	})
	return edits
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

func convertJSON(in interface{}, out interface{}) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// nestedMap follows a document path to a mapping.
func nestedMap(doc interface{}, path ...interface{}) (map[string]interface{}, bool) {
	cur := doc
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]interface{})
			if !ok {
				return nil, false
			}
			cur = m[s]
		case int:
			l, ok := cur.([]interface{})
			if !ok || s < 0 || s >= len(l) {
				return nil, false
			}
			cur = l[s]
		}
	}
	m, ok := cur.(map[string]interface{})
	return m, ok
}

func toSteps(keys []string) []interface{} {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}
