package infer

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/infer/ruleshape"
)

// tieUnion makes the union of the ties to discriminator d.
func (g *gathered) tieUnion(p decl.Path, d string, found []unionEvidence) (unionFound, bool) {
	byMember, evidence, ok := mergeTies(d, found)
	if !ok {
		return unionFound{}, false
	}
	u := unionFound{evidence: evidence, union: decl.Union{Discriminator: d, ExactlyOne: true}}
	required := g.keepsPresent(p, d)
	values := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(byMember)) {
		t := byMember[name]
		if !t.OnlyWhen {
			continue // allowed for other values too: no member
		}
		if values[t.Value] {
			// Several fields allowed for one value: no choice among
			// them, no union.
			return unionFound{}, false
		}
		values[t.Value] = true
		u.union.Members = append(u.union.Members, decl.UnionMember{Name: name, Value: t.Value})
		u.union.ExactlyOne = u.union.ExactlyOne && t.RequiredWhen
		required = required || t.DiscRequired
		if t.EmptyAsUnset {
			u.notes = appendOnce(u.notes, "the published rules count an empty value as unset; a union counts it as set")
		}
	}
	if len(u.union.Members) == 0 || !g.allProperties(p, append(u.union.MemberNames(), d)) || !g.isString(p, d) {
		return unionFound{}, false
	}
	u.union.ExactlyOne = u.union.ExactlyOne && required
	if len(u.union.Members) == 1 && !byMember[u.union.Members[0].Name].RequiredWhen {
		u.doubt = "a single field allowed for one value of " + d + " only: a union of one member, which the rule may mean as a plain restriction"
	}
	return u, true
}

// mergeTies joins the ties of each member to d, from several rules; a
// member tied to two values of d makes no union.
func mergeTies(d string, found []unionEvidence) (map[string]*ruleshape.Tie, []Evidence, bool) {
	byMember := map[string]*ruleshape.Tie{}
	var evidence []Evidence
	for _, u := range found {
		t := u.choice.Tie
		m, ok := byMember[t.Member]
		if !ok {
			c := *t
			m = &c
			byMember[t.Member] = m
		}
		if m.Value != t.Value {
			return nil, nil, false
		}
		m.OnlyWhen = m.OnlyWhen || t.OnlyWhen
		m.RequiredWhen = m.RequiredWhen || t.RequiredWhen
		m.DiscRequired = m.DiscRequired || t.DiscRequired
		m.EmptyAsUnset = m.EmptyAsUnset || t.EmptyAsUnset
		u.evidence.Reading = tieWords(t, d)
		evidence = append(evidence, u.evidence)
	}
	return byMember, evidence, true
}

// tieWords says what one rule ties.
func tieWords(t *ruleshape.Tie, d string) string {
	when := " when " + d + " is '" + t.Value + "'"
	switch {
	case t.OnlyWhen && t.RequiredWhen:
		return t.Member + " set exactly" + when
	case t.OnlyWhen:
		return t.Member + " set only" + when
	}
	return t.Member + " required" + when
}

// exclusive keeps each member in one union of its node: a union whose
// members another's include is left out; two that share some are both
// doubtful.
func exclusive(us []unionFound) []unionFound {
	sort.SliceStable(us, func(i, j int) bool { return len(us[i].union.Members) > len(us[j].union.Members) })
	var out []unionFound
	owner := map[string]int{}
	for _, u := range us {
		names := u.union.MemberNames()
		shared, all := 0, true
		for _, n := range names {
			if _, ok := owner[n]; ok {
				shared++
			} else {
				all = false
			}
		}
		switch {
		case shared > 0 && all:
			continue // said by a union with more members
		case shared > 0:
			u.doubt = "it shares members with another union of the node: " + strings.Join(names, ", ")
		}
		for _, n := range names {
			owner[n] = len(out)
		}
		out = append(out, u)
	}
	sort.SliceStable(out, func(i, j int) bool { return unionKey(out[i].union) < unionKey(out[j].union) })
	return out
}

func unionKey(u decl.Union) string {
	return u.Discriminator + "\x00" + strings.Join(u.MemberNames(), ",")
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// allProperties reports whether the names are properties of node p.
func (g *gathered) allProperties(p decl.Path, names []string) bool {
	node, ok := g.version.NodeAt(p)
	props, _ := node["properties"].(map[string]interface{})
	for _, n := range names {
		if _, has := props[n]; !ok || !has {
			return false
		}
	}
	return true
}

// isString reports whether property d of node p is a string a union may
// discriminate by.
func (g *gathered) isString(p decl.Path, d string) bool {
	node, ok := g.version.NodeAt(p.Child(decl.Step{Name: d}))
	t, _ := node["type"].(string)
	format, _ := node["format"].(string)
	return ok && t == "string" && format != "date" && format != "date-time" && format != "duration" && format != "byte"
}

// keepsPresent reports whether the schema keeps property d of p present:
// required, or defaulted.
func (g *gathered) keepsPresent(p decl.Path, d string) bool {
	node, _ := g.version.NodeAt(p)
	req, _ := node["required"].([]interface{})
	for _, r := range req {
		if r == d {
			return true
		}
	}
	child, _ := g.version.NodeAt(p.Child(decl.Step{Name: d}))
	_, defaulted := child["default"]
	return defaulted
}
