package diag

import "strconv"

// Plural is noun as it goes with n: noun for one, noun+"s" otherwise.
// The nouns of mut2cel's messages take a plain s.
func Plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Count is n with its noun: "1 pair", "3 pairs".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun)
}
