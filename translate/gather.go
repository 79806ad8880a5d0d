package translate

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

// gather runs every front end on doc and returns the declarations that fit
// the CRD, in the order schema, annotation, files: each from a version the
// CRD has, on a node its schema has, agreeing with the others where they
// declare the same, and (with check) standing where semantics.md allows.
// Every declaration that does not fit is a problem at the place it was
// written, and the others are still returned, so that one run reports
// every problem.
func gather(doc map[string]interface{}, st *state, sets []decl.Set, check bool) ([]decl.Declaration, []Problem) {
	g := &gatherer{doc: doc, st: st, seen: map[string]decl.Declaration{}}
	for _, v := range st.versions {
		if root := st.roots[v]; root != nil {
			raw, _ := nestedMap(doc, root...)
			decls, problems := schemaDeclarations(st.name, v, raw, root)
			if check { // else the schema is read as it is, problems and all
				g.problems = append(g.problems, problems...)
			}
			for _, d := range decls {
				g.add(d, check, "")
			}
		}
	}
	g.annotation(check)
	g.files(sets, check)
	return g.decls, g.problems
}

type gatherer struct {
	doc      map[string]interface{}
	st       *state
	decls    []decl.Declaration
	seen     map[string]decl.Declaration // by declKey
	problems []Problem
}

// annotation takes the declarations of the mut2cel.io/declarations
// annotation, versions in spec.versions order.
func (g *gatherer) annotation(check bool) {
	a := g.st.annotation
	for _, v := range orderVersions(g.st.versions, a) {
		if root, ok := g.st.roots[v]; !ok || root == nil {
			g.problems = append(g.problems, annotationProblem(annDeclarations, "Invalid value: version %s: the CRD has no version of this name with a schema (rename the key if the version was renamed)", v))
			continue
		}
		for _, p := range sortedNames(a[v]) {
			path, _ := decl.ParsePath(p) // checked by parseDeclarations
			for _, ext := range sortedNames(a[v][p]) {
				g.add(decl.Declaration{CRD: g.st.name, Version: v, Path: path, Ext: ext, Value: a[v][p][ext],
					Origin: decl.Origin{Kind: decl.InAnnotation}}, check, "")
			}
		}
	}
}

// files takes the declarations of the sets that name doc's CRD, for the
// versions each set names or else every served version.
func (g *gatherer) files(sets []decl.Set, check bool) {
	var served []string
	for _, v := range servedVersions(g.doc, g.st) {
		served = append(served, v.name)
	}
	for _, s := range sets {
		if s.CRD != g.st.name {
			continue
		}
		versions := served
		hint := "every served version is declared: list those that have it under versions"
		if len(s.Versions) > 0 {
			hint = "check the path"
			versions = nil
			for _, v := range s.Versions {
				if root, ok := g.st.roots[v.Name]; !ok || root == nil {
					g.problems = append(g.problems, Problem{Source: v.Source, Detail: fmt.Sprintf("version %s: CRD %s has no version of this name with a schema (it has %s)", v.Name, g.st.name, strings.Join(g.st.versions, ", "))})
					continue
				}
				versions = append(versions, v.Name)
			}
		}
		for _, f := range s.Fields {
			for _, v := range versions {
				for _, ext := range sortedNames(f.Values) {
					g.add(decl.Declaration{CRD: g.st.name, Version: v, Path: f.Path, Ext: ext, Value: f.Values[ext],
						Origin: decl.Origin{Kind: decl.InFile, Source: f.Source}}, check, hint)
				}
			}
		}
	}
}

// add takes one declaration if it fits; hint says what to do when a
// declarations file names a node the schema lacks.
func (g *gatherer) add(d decl.Declaration, check bool, hint string) {
	root := g.st.roots[d.Version]
	raw, _ := nestedMap(g.doc, root...)
	rel, ok := d.Path.Resolve(raw)
	if !ok { // never inline: those are where they are
		g.problems = append(g.problems, notFound(d, hint))
		return
	}
	node := appendPath(root, rel...)
	key := declKey(d)
	if have, ok := g.seen[key]; ok {
		if have.Value != d.Value {
			g.problems = append(g.problems, conflict(have, d, node))
		}
		return
	}
	g.seen[key] = d
	g.st.nodes[key] = node
	if check {
		m, _ := nestedMap(g.doc, node...)
		if why := checkPlacement(d, m); why != "" {
			g.problems = append(g.problems, problemAt(d, node, why))
			return
		}
	}
	g.decls = append(g.decls, d)
}

// declKey identifies what a declaration declares: one extension of one
// node of one version.
func declKey(d decl.Declaration) string {
	return pathKey([]interface{}{d.Version, d.Path.String(), d.Ext})
}

func notFound(d decl.Declaration, hint string) Problem {
	if d.Origin.Kind == decl.InFile {
		return Problem{Source: d.Origin.Source, Detail: fmt.Sprintf("version %s: %s: no such node in the schema of CRD %s (%s)", d.Version, d.Path, d.CRD, hint)}
	}
	return annotationProblem(annDeclarations, "Invalid value: version %s, %s: no such node in the schema (update the path if the field moved, or delete the declaration)", d.Version, d.Path)
}

// conflict reports d, which declares otherwise what have declares already.
// The schema is read first, then the annotation, then the files.
func conflict(have, d decl.Declaration, node []interface{}) Problem {
	switch {
	case d.Origin.Kind == decl.InAnnotation:
		return Problem{Path: appendPath(node, d.Ext), Detail: fmt.Sprintf("Invalid value: %q: the %s annotation declares %q here: keep one of the two", have.Value, annDeclarations, d.Value)}
	case have.Origin.Kind == decl.InFile:
		return Problem{Source: d.Origin.Source, Detail: fmt.Sprintf("version %s: %s: %s: %s, but %s declares %s for it: keep one of the two", d.Version, d.Path, d.Ext, d.Value, have.Origin.Source, have.Value)}
	}
	return Problem{Source: d.Origin.Source, Detail: fmt.Sprintf("version %s: %s: %s: %s, but CRD %s declares %s here already (in its schema or its %s annotation): keep one of the two", d.Version, d.Path, d.Ext, d.Value, d.CRD, have.Value, annDeclarations)}
}

// problemAt reports detail about declaration d, on the schema node at the
// document path node, where the user wrote d: at the node for the schema,
// at the annotation, at the line of a file, or at the node it was copied
// to.
func problemAt(d decl.Declaration, node []interface{}, detail string) Problem {
	switch d.Origin.Kind {
	case decl.InAnnotation:
		return annotationProblem(annDeclarations, "%s: %s", d.Where(), detail)
	case decl.InFile:
		return Problem{Source: d.Origin.Source, Detail: d.Where() + ": " + detail}
	case decl.Copied:
		return Problem{Path: node, Detail: fmt.Sprintf("%s copied from version %s by --all-versions: %s", d.Ext, d.Origin.From, detail)}
	}
	return Problem{Path: appendPath(node, d.Ext), Detail: detail}
}
