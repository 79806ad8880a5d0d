package infer

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// Several served versions: without a conversion webhook they read and
// write the same stored objects, so a declaration holds in every served
// version that has its path (docs/semantics.md 1.1.6, and docs/audit.md,
// which declares so where a version lacks the published rule). The
// proposals of all versions are joined path by path: the constraints add
// up, every served version with the path gets them, and a note names the
// versions that say nothing of it. A version that says something
// doubtful of the same path (a rule that holds under a condition there)
// makes the whole proposal doubtful: the versions disagree. With a
// conversion webhook each version stores its own form, and proposals stay
// with the versions that make them (identical ones are joined).

// facet is which part of a node's declarations a proposal makes: its
// update constraints, or its unions.
func facet(p *Proposal) string {
	if len(p.unions) > 0 {
		return "unions"
	}
	return "constraints"
}

// mergeVersions joins the proposals of the served versions.
func mergeVersions(c *crd.CRD, versions []*versionProposals) []*Proposal {
	byKey := map[string][]*Proposal{}
	for _, vp := range versions {
		for _, p := range vp.list {
			k := p.Path.String() + "\x00" + facet(p)
			byKey[k] = append(byKey[k], p)
		}
	}
	var out []*Proposal
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		if c.Webhook() {
			out = append(out, joinIdentical(byKey[k])...)
		} else {
			out = append(out, joinVersions(c, byKey[k]))
		}
	}
	return joinFacets(out)
}

// joinVersions joins one path's proposals of one facet across versions
// that store the same objects.
func joinVersions(c *crd.CRD, ps []*Proposal) *Proposal {
	var sure, doubtful []*Proposal
	for _, p := range ps {
		if p.Doubt == "" {
			sure = append(sure, p)
		} else {
			doubtful = append(doubtful, p)
		}
	}
	if len(sure) == 0 {
		return joinDoubts(ps)
	}
	out := &Proposal{Path: sure[0].Path}
	unions := map[string]bool{}
	for _, p := range sure {
		if len(p.unions) > 0 {
			out.unions = p.unions
			unions[unionsText(p.unions)] = true
		}
	}
	if len(unions) > 1 {
		out.Doubt = "the versions declare different unions here"
	}
	said := map[string]bool{}
	for _, p := range ps {
		out.constraints |= p.constraints
		out.formats = out.formats || p.formats
		out.Evidence = append(out.Evidence, p.Evidence...)
		out.Notes = append(out.Notes, p.Notes...)
		said[p.Versions[0]] = true
	}
	out.Notes = append(out.Notes, disagreeing(sure)...)
	out.Doubt = joinWhy(out.Doubt, versionedDoubts(doubtful))
	var silent []string
	out.Versions, silent = withPath(c, out.Path, said)
	if len(silent) > 0 {
		out.Notes = append(out.Notes, "no conversion webhook: the versions store the same objects, so it is proposed where "+
			strings.Join(silent, ", ")+" says nothing of it (docs/semantics.md 1.1.6)")
	}
	return out
}

// withPath lists the served versions that have path p, and those of them
// that said nothing of it.
func withPath(c *crd.CRD, p decl.Path, said map[string]bool) (versions, silent []string) {
	for _, v := range c.Versions {
		if !v.Served || !c.First(v) || v.Raw == nil {
			continue
		}
		if _, ok := v.NodeAt(p); !ok {
			continue
		}
		versions = append(versions, v.Name)
		if !said[v.Name] {
			silent = append(silent, v.Name)
		}
	}
	return versions, silent
}

// disagreeing notes versions that propose different things.
func disagreeing(sure []*Proposal) []string {
	seen := map[string][]string{}
	var order []string
	for _, p := range sure {
		k := p.constraints.String() + unionsText(p.unions)
		if _, ok := seen[k]; !ok {
			order = append(order, k)
		}
		seen[k] = append(seen[k], p.Versions[0])
	}
	if len(order) < 2 {
		return nil
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, strings.Join(seen[k], ", ")+" "+k)
	}
	return []string{"the versions say different things (" + strings.Join(parts, "; ") + "): the proposal joins them"}
}

func unionsText(us []decl.Union) string {
	if len(us) == 0 {
		return ""
	}
	return decl.UnionsText(us)
}

// joinDoubts joins doubtful proposals of one path and facet.
func joinDoubts(ps []*Proposal) *Proposal {
	out := &Proposal{Path: ps[0].Path}
	for _, p := range ps {
		out.Versions = append(out.Versions, p.Versions...)
		out.constraints |= p.constraints
		out.formats = out.formats || p.formats
		if out.unions == nil {
			out.unions = p.unions
		}
		out.Evidence = append(out.Evidence, p.Evidence...)
		out.Notes = append(out.Notes, p.Notes...)
	}
	out.Doubt = versionedDoubts(ps)
	return out
}

// versionedDoubts words the doubts of proposals of several versions, each
// once, with the versions it is about.
func versionedDoubts(ps []*Proposal) string {
	by := map[string][]string{}
	var order []string
	for _, p := range ps {
		if _, ok := by[p.Doubt]; !ok {
			order = append(order, p.Doubt)
		}
		by[p.Doubt] = append(by[p.Doubt], p.Versions...)
	}
	out := ""
	for _, d := range order {
		out = joinWhy(out, "version "+strings.Join(by[d], ", ")+": "+d)
	}
	return out
}

// joinIdentical joins, for a CRD with a conversion webhook, the proposals
// of different versions that say the same.
func joinIdentical(ps []*Proposal) []*Proposal {
	byValue := map[string]*Proposal{}
	var out []*Proposal
	for _, p := range ps {
		k := p.constraints.String() + unionsText(p.unions) + p.Doubt
		if have, ok := byValue[k]; ok {
			have.Versions = append(have.Versions, p.Versions...)
			have.Evidence = append(have.Evidence, p.Evidence...)
			continue
		}
		byValue[k] = p
		out = append(out, p)
	}
	return out
}

// joinFacets puts the sure constraints and unions of one path and one set
// of versions into one proposal, and orders the proposals by path, the
// sure before the doubtful.
func joinFacets(ps []*Proposal) []*Proposal {
	var out []*Proposal
	byKey := map[string]*Proposal{}
	for _, p := range ps {
		p.Notes = dedupe(p.Notes)
		p.Evidence = dedupeEvidence(p.Evidence)
		if p.Doubt != "" {
			out = append(out, p)
			continue
		}
		k := p.Path.String() + "\x00" + strings.Join(p.Versions, ",")
		if have, ok := byKey[k]; ok {
			have.constraints |= p.constraints
			have.formats = have.formats || p.formats
			have.unions = append(have.unions, p.unions...)
			have.Evidence = dedupeEvidence(append(have.Evidence, p.Evidence...))
			have.Notes = dedupe(append(have.Notes, p.Notes...))
			continue
		}
		byKey[k] = p
		out = append(out, p)
	}
	for _, p := range out {
		p.Values = values(p)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path.String() != b.Path.String() {
			return a.Path.String() < b.Path.String()
		}
		return a.Doubt == "" && b.Doubt != ""
	})
	return out
}

func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		out = appendOnce(out, s)
	}
	return out
}

// dedupeEvidence keeps one of each evidence, naming all the versions that
// give it.
func dedupeEvidence(list []Evidence) []Evidence {
	var out []Evidence
	at := map[string]int{}
	for _, e := range list {
		k := e.At.String() + "\x00" + e.Text + "\x00" + e.Message + "\x00" + e.Reading
		if i, ok := at[k]; ok {
			if !strings.Contains(", "+out[i].Version+",", ", "+e.Version+",") {
				out[i].Version += ", " + e.Version
			}
			continue
		}
		at[k] = len(out)
		out = append(out, e)
	}
	return out
}
