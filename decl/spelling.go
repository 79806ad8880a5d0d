package decl

import (
	"fmt"
	"slices"
	"strings"
)

// maxTypos is the most single-character edits (insert, delete, replace,
// or swap of neighbours, letter case aside) by which a key a reader does
// not know is taken for a misspelling of one it knows. The keys compared
// are long (x-kubernetes-update has 19 characters), so that three edits
// still leave them far from each other and from the apiserver's own.
const maxTypos = 3

// Misspelling says which of Extensions key most likely misspells, when
// key is not one of them: one it equals but for letter case or a few
// typos (x-kubernetes-mutabilty), or, after the x-kubernetes- prefix, a
// word that names one of them (x-kubernetes-immutable,
// x-kubernetes-key-mutable, x-kubernetes-updates), or after
// mut2cel's own prefix x-mut2cel- (x-mut2cel-format). No key of the
// apiserver's (x-kubernetes-validations, x-kubernetes-list-type, ...) is
// one. A declaration under such a key would be lost without a word: the
// apiserver drops keys it does not know (or refuses them, under strict
// field validation), and no reader takes it for a declaration.
func Misspelling(key string) (string, bool) {
	if slices.Contains(Extensions, key) {
		return "", false
	}
	if ext, ok := Closest(key, Extensions); ok {
		return ext, true
	}
	word, ok := strings.CutPrefix(strings.ToLower(key), "x-kubernetes-")
	if !ok {
		// mut2cel's own prefix, which the apiserver never uses.
		if word, ok = strings.CutPrefix(strings.ToLower(key), "x-mut2cel-"); !ok {
			return "", false
		}
	}
	// The kind whose words the key holds, the one with the most words
	// first: x-kubernetes-key-mutable holds the words of two.
	best, most := "", 0
	for _, k := range Kinds {
		if len(k.words) > most && containsAll(word, k.words) {
			best, most = k.Name, len(k.words)
		}
	}
	return best, most > 0
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// UnknownKey quotes key, a key where an extension is expected that is none
// of them, with the one it misspells if it does: `"x-kubernetes-mutable"
// (did you mean x-kubernetes-mutability?)`.
func UnknownKey(key string) string {
	if ext, ok := Misspelling(key); ok {
		return fmt.Sprintf("%q (did you mean %s?)", key, ext)
	}
	return fmt.Sprintf("%q", key)
}

// Closest returns the word of known nearest to word, a word that is not
// one of them, and whether it is near enough (maxTypos edits, letter case
// aside) to be what was meant.
func Closest(word string, known []string) (string, bool) {
	best, least := "", maxTypos+1
	lower := ""
	for _, k := range known {
		// Every edit changes the length by one at most, so a word whose
		// length is further off than maxTypos is never near: schema keys
		// such as type or properties are passed over without comparing.
		if diff := len(word) - len(k); diff > maxTypos || -diff > maxTypos {
			continue
		}
		if lower == "" {
			lower = strings.ToLower(word)
		}
		if d := typos(lower, strings.ToLower(k)); d < least {
			best, least = k, d
		}
	}
	return best, least <= maxTypos
}

// typos is the optimal string alignment distance between a and b: the
// fewest insertions, deletions, replacements and swaps of neighbouring
// bytes that turn a into b, no substring edited twice. It keeps three
// rows of the table: the distance between a[:i] and b[:j] needs only
// rows i-1 and i-2.
func typos(a, b string) int {
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
