package infer

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// score counts, by kind, the sure proposals and those the intent
// implies (precision), and the units of intent and those the proposals
// imply (recall).
type score struct {
	proposed, right map[string]int
	intended, found map[string]int
	// misses lists what was wrong or missed, for the test's log.
	misses []string
}

func newScore() *score {
	return &score{proposed: map[string]int{}, right: map[string]int{}, intended: map[string]int{}, found: map[string]int{}}
}

// kindOf names the kind of a unit of constraints on p.
func kindOf(p decl.Path, c decl.Constraints) string {
	imm, _, _ := decl.KEP(decl.ExtMutability, decl.Immutable, p.IsEntry())
	switch {
	case c == imm:
		return "Immutable"
	case c == decl.Of(decl.NoUnset, decl.NoModify):
		return "set once"
	case c == decl.Of(decl.NoModify):
		return "NoModify"
	case c&^decl.Presence == 0:
		return "presence"
	case c&^decl.KeyConstraints == 0:
		return "keys"
	}
	return "other"
}

const unionKind = "union"

// add scores one CRD: its sure proposals against the truth, in scope.
func (s *score) add(file string, m *crd.CRD, truth, proposed *units, sc scope) {
	for _, v := range m.Versions {
		if !v.Served || !m.First(v) {
			continue
		}
		fromTruth, fromProposals := newImplier(v, truth), newImplier(v, proposed)
		if sc.constraints {
			s.compare(file, m.Name, v.Name, proposed, fromTruth, true)
			s.compare(file, m.Name, v.Name, truth, fromProposals, false)
		}
		if sc.unions {
			s.compareUnions(file, m.Name, v.Name, proposed, truth, true)
			s.compareUnions(file, m.Name, v.Name, truth, proposed, false)
		}
	}
}

// compare counts the constraint units of one version of from, and those
// other implies; precision says which side is which.
func (s *score) compare(file, name, version string, from *units, other *implier, precision bool) {
	for _, k := range slices.Sorted(maps.Keys(from.constraints)) {
		if versionOf(k) != version {
			continue
		}
		p, c := from.paths[k], from.constraints[k]
		kind := kindOf(p, c)
		ok := other.all(p, c)
		s.count(kind, ok, precision)
		if !ok {
			s.miss(precision, fmt.Sprintf("%s %s %s %s %s", file, name, version, p, c))
		}
	}
}

func (s *score) compareUnions(file, name, version string, from, other *units, precision bool) {
	for _, k := range slices.Sorted(maps.Keys(from.unions)) {
		if versionOf(k) != version {
			continue
		}
		_, ok := other.unions[k]
		s.count(unionKind, ok, precision)
		if !ok {
			s.miss(precision, fmt.Sprintf("%s %s %s %s", file, name, strings.ReplaceAll(k, "\x00", " "), ""))
		}
	}
}

func (s *score) count(kind string, ok, precision bool) {
	if precision {
		s.proposed[kind]++
		if ok {
			s.right[kind]++
		}
		return
	}
	s.intended[kind]++
	if ok {
		s.found[kind]++
	}
}

func (s *score) miss(precision bool, what string) {
	if precision {
		s.misses = append(s.misses, "wrong: "+what)
	} else {
		s.misses = append(s.misses, "missed: "+what)
	}
}

// totals are the precision and recall over every kind.
func (s *score) totals() (precision, recall float64) {
	return ratio(sum(s.right), sum(s.proposed)), ratio(sum(s.found), sum(s.intended))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// table writes the scores by kind as a Markdown table, the one
// docs/infer.md shows.
func (s *score) table() string {
	kinds := map[string]bool{}
	for _, m := range []map[string]int{s.proposed, s.intended} {
		for k := range m {
			kinds[k] = true
		}
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("| kind | proposed | right | precision | intended | found | recall |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range names {
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f | %d | %d | %.2f |\n", k, s.proposed[k], s.right[k], ratio(s.right[k], s.proposed[k]),
			s.intended[k], s.found[k], ratio(s.found[k], s.intended[k]))
	}
	p, r := s.totals()
	fmt.Fprintf(&b, "| all | %d | %d | %.2f | %d | %d | %.2f |\n", sum(s.proposed), sum(s.right), p, sum(s.intended), sum(s.found), r)
	return b.String()
}
