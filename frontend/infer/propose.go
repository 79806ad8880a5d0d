package infer

import (
	"maps"
	"slices"

	"github.com/mut2cel/mut2cel/decl"
)

// What one version says of a node becomes a proposal by these rules:
//
//   - The constraints are those the published rules enforce, with those
//     the text says (a rule's message, a description). Where the text says
//     more than the rules enforce, the proposal follows the text, the
//     stronger documented intent, and a note says so: a later audit
//     flags exactly that.
//   - The weak NoUnset of "once set" gives way to a rule that lets the
//     field be cleared in so many words (!has(self.x) || ...).
//   - Anything doubtful at the node (a rule that holds under a condition,
//     a conditional or hedged sentence) makes the proposal doubtful: it is
//     written commented out, saying why.
//   - Where the text on a node is contradicted by what is said of a field
//     below it (the node "is immutable after creation", a field inside is
//     "immutable once set"), the more specific statement wins and the
//     node's proposal is doubtful.

// versionProposals are one version's proposals.
type versionProposals struct {
	version string
	list    []*Proposal
}

// propose turns what a version says into proposals.
func propose(g *gathered) *versionProposals {
	vp := &versionProposals{version: g.version.Name}
	keys := slices.Sorted(maps.Keys(g.nodes))
	for _, k := range keys {
		f := g.nodes[k]
		vp.list = append(vp.list, g.fieldProposals(f)...)
	}
	for _, k := range slices.Sorted(maps.Keys(g.unions)) {
		p := g.nodes[k]
		var path decl.Path
		if p != nil {
			path = p.path
		} else {
			path, _ = decl.ParsePath(k)
		}
		vp.list = append(vp.list, unionProposals(path, g.version.Name, g.assembleUnions(path, g.unions[k]))...)
	}
	g.contradictions(vp.list)
	return vp
}

// fieldProposals gives the proposals of one node: the sure one, if any,
// and the doubtful one, if any.
func (g *gathered) fieldProposals(f *facts) []*Proposal {
	sure := f.enforced | f.strong | f.weak
	var notes []string
	if f.ruleAllowsUnset && f.weak.Has(decl.NoUnset) && !f.strong.Has(decl.NoUnset) {
		sure &^= decl.Constraints(decl.NoUnset)
		notes = append(notes, "a published rule lets the field be cleared, which \"once set\" leaves open: not NoUnset")
	}
	notes = append(notes, disagreements(f, sure)...)
	keys, entries, keyNotes, keyDoubt := g.collection(f)
	sure |= keys
	notes = append(notes, keyNotes...)
	var out []*Proposal
	if entries {
		out = append(out, g.newProposal(f.path.Child(decl.Step{Entries: true}), decl.Of(decl.NoModify), f.evidence, nil, ""))
	}
	doubts := f.doubts
	if keyDoubt != "" {
		doubts = append(doubts, doubt{keys, keyDoubt})
	}
	if len(doubts) > 0 {
		c, why := sure, ""
		for _, d := range doubts {
			c |= d.constraints
			why = joinWhy(why, d.why)
		}
		return append(out, g.newProposal(f.path, c, f.evidence, notes, why))
	}
	if sure != 0 {
		out = append(out, g.newProposal(f.path, sure, f.evidence, notes, ""))
	}
	return out
}

// disagreements notes where the text and the published rules differ.
func disagreements(f *facts, sure decl.Constraints) []string {
	var notes []string
	if f.enforced != 0 && sure != f.enforced {
		notes = append(notes, "the published rules enforce "+f.enforced.String()+"; the text says "+sure.String())
	}
	if f.ruleAllowsSet && sure.Has(decl.NoSet) {
		notes = append(notes, "a published rule lets the field be set after creation; the text says it may not")
	}
	if f.ruleAllowsUnset && sure.Has(decl.NoUnset) {
		notes = append(notes, "a published rule lets the field be cleared; the text says it may not")
	}
	return notes
}

func joinWhy(a, b string) string {
	if a == "" || a == b {
		return b
	}
	return a + "; " + b
}

// newProposal makes a proposal of constraints c on p in this version, in
// the form the node takes (placed).
func (g *gathered) newProposal(p decl.Path, c decl.Constraints, ev []Evidence, notes []string, doubt string) *Proposal {
	pr := &Proposal{Path: p, Versions: []string{g.version.Name}, Evidence: ev, Notes: notes, Doubt: doubt,
		constraints: g.placed(p, c)}
	if pr.constraints.Has(decl.NoModify) && g.comparedAsCEL(p, ev) {
		pr.formats = true
		pr.Notes = append(pr.Notes, "the published rule compares the date-time, duration or byte strings inside as the apiserver's CEL reads them; "+
			decl.ExtFormats+": "+decl.CompareAsValues+" keeps that reading")
	}
	return pr
}

// unionProposals gives one proposal for the sure unions of a node and one
// for each doubtful union.
func unionProposals(p decl.Path, version string, found []unionFound) []*Proposal {
	var out []*Proposal
	var sure *Proposal
	for _, u := range found {
		if len(u.union.Members) == 0 {
			continue
		}
		if u.doubt != "" {
			out = append(out, &Proposal{Path: p, Versions: []string{version}, Evidence: u.evidence, Notes: u.notes,
				Doubt: u.doubt, unions: []decl.Union{u.union}})
			continue
		}
		if sure == nil {
			sure = &Proposal{Path: p, Versions: []string{version}}
			out = append(out, sure)
		}
		sure.unions = append(sure.unions, u.union)
		sure.Evidence = append(sure.Evidence, u.evidence...)
		sure.Notes = append(sure.Notes, u.notes...)
	}
	if sure != nil && decl.CheckUnions(sure.unions) != nil {
		sure.Doubt = decl.CheckUnions(sure.unions).Error()
	}
	return out
}
