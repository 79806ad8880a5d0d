package infer

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/infer/phrases"
	"github.com/mut2cel/mut2cel/frontend/infer/ruleshape"
)

// The union shapes of one node's rules (ruleshape.Choice) make its unions
// (docs/semantics.md 11):
//
//   - groups of the same members add up: at most one and at least one
//     make exactly one;
//   - pairs excluded two by two make one union when every two members of
//     a set are excluded, and none when they are not (a and c may then be
//     set together, which no union says);
//   - a pair excluded by !has(a) || !has(b) is a choice when the rule's
//     message says so ("mutually exclusive", "only one of", "not both");
//     "b is not supported with a" may be a restriction of b alone, and is
//     written commented out;
//   - ties to one discriminator make a union of the members that may be
//     set only for their value; it is exactly one when each is also
//     required for its value and the discriminator must be set; a single
//     member makes one only when tied both ways;
//   - a message that says "exactly one" or "either ... but not both" over a
//     rule that enforces at most one gives exactly one, and the proposal
//     says so.

// unionEvidence is one union shape and the rule it comes from.
type unionEvidence struct {
	choice   ruleshape.Choice
	evidence Evidence
}

// unionFound is one union of a node, sure or doubtful.
type unionFound struct {
	union    decl.Union
	doubt    string
	notes    []string
	evidence []Evidence
}

var (
	choiceWording  = regexp.MustCompile(`\bmutually\s+exclusive\b|\b(?:only|at\s+most|exactly)\s+one\s+of\b|\bnot\s+both\b|\bboth\b.*\b(?:cannot|can't|can\s?not|must\s+not|may\s+not)\b|\b(?:cannot|can't|can\s?not|must\s+not|may\s+not)\b.*\bboth\b|\beither\b`)
	exactlyWording = regexp.MustCompile(`\bexactly\s+one\b|\bone\s+and\s+only\s+one\b|\bmust\s+(?:specify|define|set|provide|contain|have|configure|choose|be\s+set\s+to)\s+(?:either|exactly\s+one|one\s+of)\b|\beither\b.*\bbut\s+not\s+both\b`)
)

// mergedGroup is the groups of one member set, added up.
type mergedGroup struct {
	members              []string
	atMost, atLeast      bool
	counted, worded      bool
	exactlyWorded, empty bool
	evidence             []Evidence
	// doubt: the pairs joined do not make one union.
	doubt string
}

// assembleUnions makes the unions of node p from the shapes found.
func (g *gathered) assembleUnions(p decl.Path, found []unionEvidence) []unionFound {
	var groups []unionEvidence
	ties := map[string][]unionEvidence{}
	for _, u := range found {
		if u.choice.Group != nil {
			groups = append(groups, u)
		} else {
			ties[u.choice.Tie.Disc] = append(ties[u.choice.Tie.Disc], u)
		}
	}
	out := g.groupUnions(p, groups)
	for _, d := range slices.Sorted(maps.Keys(ties)) {
		if u, ok := g.tieUnion(p, d, ties[d]); ok {
			out = append(out, u)
		}
	}
	return exclusive(out)
}

// groupUnions adds up the groups by member set, then joins the pairs.
func (g *gathered) groupUnions(p decl.Path, found []unionEvidence) []unionFound {
	byMembers := map[string]*mergedGroup{}
	var order []string
	for _, u := range found {
		gr := u.choice.Group
		k := strings.Join(gr.Members, ",")
		m, ok := byMembers[k]
		if !ok {
			m = &mergedGroup{members: gr.Members}
			byMembers[k] = m
			order = append(order, k)
		}
		msg := phrases.Normalized(u.evidence.Message)
		m.atMost = m.atMost || gr.Card != ruleshape.AtLeastOne
		m.atLeast = m.atLeast || gr.Card != ruleshape.AtMostOne
		m.counted = m.counted || gr.Counted
		m.worded = m.worded || choiceWording.MatchString(msg) || exactlyWording.MatchString(msg)
		m.exactlyWorded = m.exactlyWorded || exactlyWording.MatchString(msg)
		m.empty = m.empty || gr.EmptyAsUnset
		u.evidence.Reading = "a choice among " + strings.Join(gr.Members, ", ")
		m.evidence = append(m.evidence, u.evidence)
	}
	var groups []*mergedGroup
	for _, k := range order {
		if m := byMembers[k]; m.atMost && g.allProperties(p, m.members) {
			groups = append(groups, m)
		}
	}
	var out []unionFound
	for _, m := range joinPairs(groups) {
		out = append(out, m.found())
	}
	return out
}

// found turns a merged group into a union.
func (m *mergedGroup) found() unionFound {
	u := unionFound{evidence: m.evidence}
	u.union.ExactlyOne = m.atLeast
	for _, name := range m.members {
		u.union.Members = append(u.union.Members, decl.UnionMember{Name: name})
	}
	if !m.atLeast && m.exactlyWorded {
		u.union.ExactlyOne = true
		u.notes = append(u.notes, "the published rules enforce at most one; the message says exactly one")
	}
	if m.empty {
		u.notes = append(u.notes, "the published rules count an empty value as unset; a union counts it as set")
	}
	switch {
	case m.doubt != "":
		u.doubt = m.doubt
	case !m.counted && !m.worded:
		u.doubt = "the rule forbids setting them together, but its message does not speak of a choice between them"
	}
	return u
}

// joinPairs joins pairs of members excluded two by two into one group
// where every two of a set are excluded; a set of pairs that is not
// complete makes no union.
func joinPairs(groups []*mergedGroup) []*mergedGroup {
	var out []*mergedGroup
	pairs := map[string]map[string]*mergedGroup{}
	for _, m := range groups {
		if len(m.members) != 2 || m.atLeast {
			out = append(out, m)
			continue
		}
		a, b := m.members[0], m.members[1]
		for _, x := range [][2]string{{a, b}, {b, a}} {
			if pairs[x[0]] == nil {
				pairs[x[0]] = map[string]*mergedGroup{}
			}
			pairs[x[0]][x[1]] = m
		}
	}
	done := map[string]bool{}
	for _, start := range slices.Sorted(maps.Keys(pairs)) {
		if done[start] {
			continue
		}
		comp := component(pairs, start)
		for _, n := range comp {
			done[n] = true
		}
		out = append(out, joined(pairs, comp))
	}
	return out
}

// component lists the members reachable from start by pairs, sorted.
func component(pairs map[string]map[string]*mergedGroup, start string) []string {
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for m := range pairs[n] {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// joined is the group of a component's pairs.
func joined(pairs map[string]map[string]*mergedGroup, comp []string) *mergedGroup {
	j := &mergedGroup{members: comp, atMost: true, counted: true, worded: true}
	seen := map[*mergedGroup]bool{}
	complete := true
	for i, a := range comp {
		for _, b := range comp[i+1:] {
			m, ok := pairs[a][b]
			if !ok {
				complete = false
				continue
			}
			if !seen[m] {
				seen[m] = true
				j.counted = j.counted && m.counted
				j.worded = j.worded && m.worded
				j.exactlyWorded = j.exactlyWorded || m.exactlyWorded
				j.empty = j.empty || m.empty
				j.evidence = append(j.evidence, m.evidence...)
			}
		}
	}
	if !complete {
		j.doubt = "the rules exclude pairs that do not make one union: some of " + strings.Join(comp, ", ") + " may be set together"
	}
	return j
}
