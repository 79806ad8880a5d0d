package decl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
)

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
	if ext, ok := diag.Closest(key, Extensions); ok {
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
