package diag

import "strings"

// MaxTypos is the most single-character edits (insert, delete, replace,
// or swap of neighbours, letter case aside) by which a key a reader does
// not know is taken for a misspelling of one it knows. The keys compared
// are long (x-kubernetes-update has 19 characters), so that three edits
// still leave them far from each other and from the apiserver's own.
const MaxTypos = 3

// Closest returns the word of known nearest to word, a word that is not
// one of them, and whether it is near enough (MaxTypos edits, letter case
// aside) to be what was meant.
func Closest(word string, known []string) (string, bool) {
	best, least := "", MaxTypos+1
	lower := ""
	for _, k := range known {
		// Every edit changes the length by one at most, so a word whose
		// length is further off than MaxTypos is never near: schema keys
		// such as type or properties are passed over without comparing.
		if diff := len(word) - len(k); diff > MaxTypos || -diff > MaxTypos {
			continue
		}
		if lower == "" {
			lower = strings.ToLower(word)
		}
		if d := Typos(lower, strings.ToLower(k)); d < least {
			best, least = k, d
		}
	}
	return best, least <= MaxTypos
}

// Typos is the optimal string alignment distance between a and b: the
// fewest insertions, deletions, replacements and swaps of neighbouring
// bytes that turn a into b, no substring edited twice. It keeps three
// rows of the table: the distance between a[:i] and b[:j] needs only
// rows i-1 and i-2.
func Typos(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
