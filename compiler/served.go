package compiler

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// Served versions and the objects they share. Without a conversion webhook
// (spec.conversion.strategy None, the default) the apiserver stores one
// object and hands it out under every served version, changing only
// apiVersion; an update sent through any served version is validated by
// that version's schema alone. A declaration made in one served version
// therefore protects nothing against clients of another unless that version
// declares it too. Unserved versions cannot be written through and take no
// part (docs/translation.md, "Several versions").

// servedVersion is a served version that has a schema.
type servedVersion struct {
	name string
	root []interface{} // document path of its openAPIV3Schema
	v    *crd.Version
}

// spread is what the served versions say about each other's declarations.
type spread struct {
	st *state // whose nodes the copies are added to
	// copies are the declarations AllServedVersions adds.
	copies   []decl.Declaration
	warnings []Problem
	problems []Problem
}

// spreadDeclarations compares the declarations of the served versions path
// by path and extension by extension. A path declared in some served
// versions and present, undeclared, in another is copied there with
// AllServedVersions, and is otherwise an error, or a warning when a
// conversion webhook may store the versions differently. Served versions
// that declare different values are an error, unless a webhook converts
// them and AllServedVersions is off.
func spreadDeclarations(st *state, declared []decl.Declaration, opts Options) *spread {
	sp := &spread{st: st}
	served := servedVersions(st)
	if len(served) < 2 {
		return sp
	}
	webhook := st.crd.Webhook()
	decls := declarations{}
	for _, d := range declared {
		decls.add(d.Version, d.Path.String(), d.Ext, d.Value)
	}
	for _, p := range declaredPaths(decls, served) {
		for _, ext := range decl.Extensions {
			sp.compare(decls, served, p, ext, webhook, opts.AllServedVersions)
		}
	}
	return sp
}

// compare handles one extension at one path across the served versions.
func (sp *spread) compare(decls declarations, served []servedVersion, p, ext string, webhook, all bool) {
	var declaring []string
	var value string
	var missing []servedVersion
	conflict := false
	for _, v := range served {
		got, ok := decls[v.name][p][ext]
		switch {
		case !ok:
			if _, exists := v.node(p); exists {
				missing = append(missing, v)
			}
		case len(declaring) == 0:
			declaring, value = append(declaring, v.name), got
		case got == value:
			declaring = append(declaring, v.name)
		case all || !webhook:
			conflict = true
			sp.problems = append(sp.problems, NewProblem(Invalid, "%s", conflictDetail(declaring[0], v.name, p, ext, value, got, all)).At(v.nodeOrRoot(p)))
		}
	}
	if len(declaring) == 0 || conflict {
		return
	}
	for _, v := range missing {
		node, _ := v.node(p)
		switch {
		case all:
			path, _ := decl.ParsePath(p)
			d := decl.Declaration{CRD: sp.st.name, Version: v.name, Path: path, Ext: ext, Value: value,
				Origin: decl.Origin{Kind: decl.Copied, From: declaring[0]}}
			sp.copies = append(sp.copies, d)
		case webhook:
			sp.warnings = append(sp.warnings, withHint(NewProblem("", "%s", missingDetail(declaring, v.name, p, ext, value, true)).At(node), hintAllVersions))
		default:
			sp.problems = append(sp.problems, withHint(NewProblem(Required, "%s", missingDetail(declaring, v.name, p, ext, value, false)).At(node), hintAllVersions))
		}
	}
}

func missingDetail(declaring []string, version, p, ext, value string, webhook bool) string {
	which := "version " + declaring[0] + " declares"
	if len(declaring) > 1 {
		which = "versions " + strings.Join(declaring, ", ") + " declare"
	}
	why := "the versions store the same objects (no conversion webhook), so updates sent through " + version + " escape it"
	if webhook {
		why = "if the conversion webhook keeps this field as it is, updates sent through " + version + " escape it"
	}
	return fmt.Sprintf("version %s serves %s without the %s: %s that %s there; %s: declare it in %s too",
		version, p, ext, value, which, why, version)
}

func conflictDetail(first, version, p, ext, want, got string, all bool) string {
	why := "the versions store the same objects (no conversion webhook)"
	if all {
		why = "declarations apply to every served version"
	}
	return fmt.Sprintf("%q: version %s declares %s: %s on %s, version %s declares %s; %s: make them the same",
		got, first, ext, want, p, version, got, why)
}

// servedVersions lists the served versions with a schema, in spec.versions
// order.
func servedVersions(st *state) []servedVersion {
	var out []servedVersion
	for _, v := range st.crd.Versions {
		if !v.Served || v.Raw == nil || !st.crd.First(v) {
			continue // a duplicate name is reported by readState
		}
		out = append(out, servedVersion{name: v.Name, root: v.Root(), v: v})
	}
	return out
}

// node finds the schema node at path p in the version.
func (v servedVersion) node(p string) ([]interface{}, bool) {
	steps, err := decl.ParsePath(p)
	if err != nil {
		return nil, false
	}
	return v.v.Node(steps)
}

// nodeOrRoot is node, or the schema root when the path does not resolve
// (a declaration names a node that is gone, which gather reports).
func (v servedVersion) nodeOrRoot(p string) []interface{} {
	if node, ok := v.node(p); ok {
		return node
	}
	return v.root
}

// declaredPaths lists, sorted, the paths any served version declares.
func declaredPaths(decls declarations, served []servedVersion) []string {
	union := map[string]bool{}
	for _, v := range served {
		for p := range decls[v.name] {
			union[p] = true
		}
	}
	return slices.Sorted(maps.Keys(union))
}
