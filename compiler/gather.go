package compiler

import (
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// gather runs every front end on doc and returns the declarations that fit
// the CRD, in the order schema, annotation, files: each from a version the
// CRD has, on a node its schema has, agreeing with the others where they
// declare the same, and (with check) standing where semantics.md allows.
// Every declaration that does not fit is a problem at the place it was
// written, and the others are still returned, so that one run reports
// every problem.
func gather(st *state, sets []decl.Set, check bool) ([]decl.Declaration, []Problem) {
	g := &gatherer{st: st, seen: map[string]decl.Declaration{}}
	for _, name := range st.versions {
		if v := st.withSchema(name); v != nil {
			decls, problems := schemaDeclarations(st.name, v)
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
	if check { // else where a modifier may stand is left to the reader
		g.problems = append(g.problems, g.modifiersAlone()...)
	}
	if len(g.decls) > limits.Declarations {
		// Nothing is compiled: the apiserver's own validation would
		// take minutes (internal/limits).
		return nil, []Problem{errTooManyDeclarations(len(g.decls))}
	}
	return g.decls, g.problems
}

type gatherer struct {
	st       *state
	decls    []decl.Declaration
	seen     map[string]decl.Declaration // by declKey
	problems []Problem
}

// annotation takes the declarations of the mut2cel.io/declarations
// annotation, versions in spec.versions order.
func (g *gatherer) annotation(check bool) {
	a := g.st.annotation()
	for _, v := range orderVersions(g.st.versions, a) {
		if g.st.withSchema(v) == nil {
			g.problems = append(g.problems, annotationProblem(annDeclarations, NewProblem(Invalid, "version %s: the CRD has no version of this name with a schema (rename the key if the version was renamed)", v)))
			continue
		}
		for _, p := range slices.Sorted(maps.Keys(a[v])) {
			path, _ := decl.ParsePath(p) // checked by decl.ParseAnnotation
			for _, ext := range slices.Sorted(maps.Keys(a[v][p])) {
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
	for _, v := range servedVersions(g.st) {
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
				if g.st.withSchema(v.Name) == nil {
					p := NewProblem(NotFound, "CRD %s has no version of this name with a schema (it has %s)", g.st.name, strings.Join(g.st.versions, ", "))
					p.Where = "version " + v.Name
					g.problems = append(g.problems, inSource(p, v.Source))
					continue
				}
				versions = append(versions, v.Name)
			}
		}
		for _, f := range s.Fields {
			for _, v := range versions {
				for _, ext := range slices.Sorted(maps.Keys(f.Values)) {
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
	v := g.st.withSchema(d.Version) // every caller checked that it has one
	node, ok := v.Node(d.Path)
	if !ok { // never inline: those are where they are
		g.problems = append(g.problems, errNotFound(d, v.Raw, hint))
		return
	}
	if len(d.Path) > limits.DeclarationDepth {
		g.problems = append(g.problems, problemAt(d, node, errDeclaredTooDeep(len(d.Path))))
		return
	}
	key := declKey(d)
	if have, ok := g.seen[key]; ok {
		if have.Value != d.Value {
			g.problems = append(g.problems, errConflict(have, d, node))
		}
		return
	}
	g.seen[key] = d
	if check {
		if p, ok := placed(g.st, d); !ok {
			g.problems = append(g.problems, p)
			return
		}
	}
	g.decls = append(g.decls, d)
}

// placed checks that d may stand on its schema node (checkPlacement),
// and else words the problem where d was written.
func placed(st *state, d decl.Declaration) (Problem, bool) {
	m, _ := st.crd.NodeAt(crd.LocationOf(d))
	if why, bad := checkPlacement(d, m); bad {
		return problemAt(d, st.node(d), why), false
	}
	return Problem{}, true
}

// declKey identifies what a declaration declares: one extension of one
// node of one version.
func declKey(d decl.Declaration) string {
	return pathKey([]interface{}{d.Version, d.Path.String(), d.Ext})
}
