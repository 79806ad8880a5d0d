package e2e

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// stats counts judged writes by kind, method and step, so that a run shows
// how much of each path it covered.
type stats struct {
	mu     sync.Mutex
	counts map[statKey]*[3]int // by outcome
}

// outcome is what the server did with a write.
type outcome int

const (
	accepted        outcome = iota
	rejectedByRules         // by the generated rules
	refused                 // by schema validation, rules or not
)

type statKey struct {
	kind, method, step string
}

func newStats() *stats { return &stats{counts: map[statKey]*[3]int{}} }

func (s *stats) count(kind string, m method, step string, o outcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := statKey{kind, m.String(), step}
	if s.counts[k] == nil {
		s.counts[k] = &[3]int{}
	}
	s.counts[k][o]++
}

// String renders one line per kind and method, with the steps of each, in
// sorted order.
func (s *stats) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := make([]statKey, 0, len(s.counts))
	for k := range s.counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.method != b.method {
			return a.method < b.method
		}
		return a.step < b.step
	})
	var b strings.Builder
	for _, k := range keys {
		c := s.counts[k]
		fmt.Fprintf(&b, "%-32s %-12s %-14s %5d accepted %5d rejected %5d refused\n", k.kind, k.method, k.step, c[accepted], c[rejectedByRules], c[refused])
	}
	return b.String()
}
