package infer

import (
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// DefaultMaxQuote keeps an evidence comment on about one line.
const DefaultMaxQuote = 160

// Result is what Infer proposes for one CRD.
type Result struct {
	CRD string
	// Served are the served versions, in spec.versions order: a proposal
	// for all of them is written without a versions list.
	Served    []string
	Proposals []*Proposal
	// Copied counts the sentences left out because they copy the
	// documentation Kubernetes gives its built-in types (phrases.CopiedBuiltin).
	Copied int
	// Unread are the transition rules (those that read oldSelf) of no
	// shape the table knows: nothing is proposed from them.
	Unread []Evidence

	crd *crd.CRD
}

// Proposal is one proposed declaration of one schema path, in the
// versions it holds for, with what it rests on.
type Proposal struct {
	Path decl.Path
	// Versions are the served versions the proposal is made for.
	Versions []string
	// Values holds each declared extension with its value in the form of
	// decl.Field.Values (the annotation's).
	Values map[string]string
	// Evidence is what the CRD says, quoted.
	Evidence []Evidence
	// Notes say what a reviewer should know: the published rules enforce
	// less than the text, versions disagree.
	Notes []string
	// Doubt, when set, says why the proposal is not sure: it is written
	// commented out.
	Doubt string
	// id identifies the proposal in the sets Sets gives (Vet).
	id int
	// What Values is made from: constraints, the formats modifier, unions.
	constraints decl.Constraints
	formats     bool
	unions      []decl.Union
}

// EvidenceKind says where a CRD says something.
type EvidenceKind uint8

const (
	// Rule is a published x-kubernetes-validations rule, with its message.
	Rule EvidenceKind = iota
	// Description is a sentence of a schema node's description.
	Description
)

// Evidence is one thing a CRD says, where it says it and what it was read
// as. Text and Message are whole; writers bound them (Options.MaxQuote).
type Evidence struct {
	Kind    EvidenceKind
	Version string    // the version, or versions ("v1, v1beta2"): In
	At      decl.Path // the schema node that carries it
	Text    string    // the rule's CEL, or the sentence
	Message string    // the rule's message
	Reading string    // what it says, in the terms of docs/semantics.md
}

// In reports whether the CRD says e in the served version named version:
// an evidence given alike in several versions is kept once, its Version
// naming them all ("v1, v1beta2").
func (e Evidence) In(version string) bool {
	for _, v := range strings.Split(e.Version, ", ") {
		if v == version {
			return true
		}
	}
	return false
}

// Infer proposes declarations for c from what it says: its published
// rules, read structurally, and its descriptions, read with the table of
// phrasings.
func Infer(c *crd.CRD) *Result {
	r := &Result{CRD: c.Name, crd: c}
	var versions []*versionProposals
	for _, v := range c.Versions {
		if !v.Served || !c.First(v) || v.Raw == nil {
			continue
		}
		r.Served = append(r.Served, v.Name)
		g := gather(c, v)
		r.Copied += g.copied
		r.Unread = append(r.Unread, g.unread...)
		versions = append(versions, propose(g))
	}
	r.Proposals = mergeVersions(c, versions)
	for i, p := range r.Proposals {
		p.id = i + 1
	}
	return r
}

// below reports whether p lies strictly below q.
func below(p, q decl.Path) bool {
	if len(p) <= len(q) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// inRootMetadata reports whether p is the root's metadata or below it,
// where no declaration may stand (docs/semantics.md 1.1.2), or the root's
// apiVersion or kind, which the apiserver owns as well: nothing is
// proposed there.
func inRootMetadata(p decl.Path) bool {
	if len(p) == 0 || p[0].Entries {
		return false
	}
	return p[0].Name == "metadata" || len(p) == 1 && (p[0].Name == "apiVersion" || p[0].Name == "kind")
}

// ownName is the property name a node goes by: its own, or, for list items
// and map values, that of its collection.
func ownName(p decl.Path) string {
	for i := len(p) - 1; i >= 0; i-- {
		if !p[i].Entries {
			return p[i].Name
		}
	}
	return ""
}
