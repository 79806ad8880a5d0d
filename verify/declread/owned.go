package declread

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	crdedit "github.com/mut2cel/mut2cel/edit"
)

// The rules mut2cel generated are not the author's: CRD sets them aside,
// so that the companions of verify's reference verdict are the rules the
// author wrote. The generated-rules record (decl.Record) lists each
// by the fingerprint of its entry (decl.Fingerprint, the one step the
// checker's side shares with the translator, doc.go) under the version
// and path of its node, as docs/rewrite.md says. A listed entry is set
// aside when it is found, unedited, at the recorded node; else on exactly
// one node of the recorded version (the node moved); else, when the
// version is gone, on exactly one node of the versions the record does
// not name (the version was renamed). Each entry is set aside once.

// generatedRule is one x-kubernetes-validations entry found by its
// fingerprint.
type generatedRule struct {
	node []interface{}
	rule crdedit.Rule
	id   string // node and index
}

// setAside is the edits that take the recorded rules and both mut2cel.io
// annotations away.
func (g *gathering) setAside() []crdedit.Edit {
	var edits []crdedit.Edit
	at := map[string]int{}
	claimed := map[string]bool{}
	for _, version := range decl.OrderVersions(g.versionNames(), g.record) {
		for _, p := range slices.Sorted(maps.Keys(g.record[version])) {
			for _, fp := range g.record[version][p] {
				var found []generatedRule
				for _, r := range g.recorded(version, p, fp) {
					if !claimed[r.id] {
						found = append(found, r)
					}
				}
				if len(found) != 1 {
					continue // the entry was edited or copied: the author's now
				}
				r := found[0]
				claimed[r.id] = true
				k := fmt.Sprint(r.node)
				i, ok := at[k]
				if !ok {
					i, at[k] = len(edits), len(edits)
					edits = append(edits, crdedit.Edit{Path: r.node})
				}
				edits[i].RemoveRules = append(edits[i].RemoveRules, r.rule)
			}
		}
	}
	return append(edits, g.dropAnnotations()...)
}

// recorded finds the entries with fingerprint fp recorded for path p of
// the version named version.
func (g *gathering) recorded(version, p, fp string) []generatedRule {
	v, exists := g.byName[version]
	if !exists {
		var found []generatedRule
		for _, w := range g.versions {
			if _, named := g.record[w.Name]; !named && w.Raw != nil {
				found = append(found, g.withFingerprint(w, fp)...)
			}
		}
		return found
	}
	if v.Raw == nil {
		return nil
	}
	if path, err := decl.ParsePath(p); err == nil {
		if node, ok := v.Node(path); ok {
			if found := g.entriesAt(node, fp); len(found) == 1 {
				return found
			}
		}
	}
	return g.withFingerprint(v, fp)
}

// withFingerprint finds the entries with fingerprint fp anywhere in the
// schema of v, through properties, items and additionalProperties.
func (g *gathering) withFingerprint(v *crd.Version, fp string) []generatedRule {
	var found []generatedRule
	v.Walk(func(node []interface{}, _ map[string]interface{}) {
		found = append(found, g.entriesAt(node, fp)...)
	})
	return found
}

// entriesAt are the rule entries of the node at document path node with
// fingerprint fp. Each node's entries are fingerprinted once, on the
// first call: a node with n generated rules is searched n times, and
// fingerprinting every entry each time made that quadratic.
func (g *gathering) entriesAt(node []interface{}, fp string) []generatedRule {
	k := fmt.Sprint(node)
	entries, ok := g.fingerprints[k]
	if !ok {
		entries = fingerprinted(g.doc, node)
		if g.fingerprints == nil {
			g.fingerprints = map[string][]fingerprintedRule{}
		}
		g.fingerprints[k] = entries
	}
	var found []generatedRule
	for _, e := range entries {
		if e.fp == fp {
			found = append(found, e.generatedRule)
		}
	}
	return found
}

// fingerprintedRule is a rule entry with its fingerprint.
type fingerprintedRule struct {
	generatedRule
	fp string
}

// fingerprinted are the rule entries of the node at document path node,
// with their fingerprints.
func fingerprinted(doc map[string]interface{}, node []interface{}) []fingerprintedRule {
	m, err := crdedit.Mapping(doc, node)
	if err != nil {
		return nil
	}
	list, _ := m[crdedit.ValidationsKey].([]interface{})
	var out []fingerprintedRule
	for i, entry := range list {
		if r, ok := crdedit.RuleOf(entry); ok {
			out = append(out, fingerprintedRule{generatedRule{node: node, rule: r, id: fmt.Sprintf("%v/%d", node, i)}, decl.Fingerprint(entry)})
		}
	}
	return out
}

// dropAnnotations removes the mut2cel.io annotations, and the annotations
// mapping when nothing else is in it.
func (g *gathering) dropAnnotations() []crdedit.Edit {
	var names []string
	if g.hasDecls {
		names = append(names, decl.AnnotationDeclarations)
	}
	if g.hasRecord {
		names = append(names, decl.AnnotationGenerated)
	}
	if _, ok := g.crd.Annotations[decl.AnnotationKubeVersion]; ok {
		names = append(names, decl.AnnotationKubeVersion)
	}
	switch {
	case len(names) == 0:
		return nil
	case len(g.crd.Annotations) == len(names):
		return []crdedit.Edit{{Path: []interface{}{"metadata"}, Remove: []string{"annotations"}}}
	}
	return []crdedit.Edit{{Path: crd.AnnotationsPath(), Remove: names}}
}
