package diag

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A message quotes paths and names from the input to say where a problem
// is. Past some length their middle tells a reader nothing and buries the
// rest of the message: a declared path of 10,000 steps made a first line
// of 20 KB. The text of a diagnostic shortens them, here and nowhere else;
// its JSON keeps them whole, for the programs that read it.
const (
	// maxSteps and maxPathBytes: a schema or field path of more steps, or
	// longer, is shortened. The deepest node of the corpus of real CRDs is
	// 18 steps down: about 40 steps as the apiserver writes the path
	// (properties[name] is two), 500 bytes.
	maxSteps     = 64
	maxPathBytes = 1024
	// keptSteps are the steps a shortened path keeps at each end.
	keptSteps = 4
	// maxStepBytes: a step of a shortened path longer than this keeps
	// stepHead and stepTail bytes.
	maxStepBytes       = 64
	stepHead, stepTail = 32, 16
	// maxWordBytes: text without a space that is no path, longer than
	// this, keeps wordHead and wordTail bytes.
	maxWordBytes       = 1024
	wordHead, wordTail = 64, 32
)

// pathStep is one step of a path as mut2cel writes it (.name, [*],
// ["name"]) or as the apiserver does (.name, [0], [name]).
const pathStep = `(?:\.[A-Za-z0-9_-]+|\[\*\]|\[[0-9]+\]|\["(?:[^"\\]|\\.)*"\]|\[[^\[\]"\s]+\])`

var (
	// path is a path: an optional leading name (spec.versions[0]...),
	// then steps.
	path = regexp.MustCompile(`(?:[A-Za-z_][A-Za-z0-9_-]*)?` + pathStep + `+`)
	step = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_-]*|` + pathStep + `)`)
)

// Shorten returns text with its long paths and words shortened for a
// reader: a path of more than 64 steps, or longer than 1,024 bytes, keeps
// its first and last 4 steps, each step at most 64 bytes, around the
// count of those left out,
//
//	.spec.a.b.c … (9,992 more) … .w.x.y.z
//
// and a word (text without a space) longer than 1,024 bytes keeps its
// first 64 and last 32 bytes: aaaa… (9,904 more bytes) …zzzz. Other text
// is returned as it is.
func Shorten(text string) string {
	if len(text) <= maxWordBytes && strings.Count(text, ".")+strings.Count(text, "[") <= maxSteps {
		return text // nothing in it can be long enough
	}
	return shortenWords(path.ReplaceAllStringFunc(text, shortenPath))
}

// shortenWords shortens each word of text longer than maxWordBytes.
func shortenWords(text string) string {
	var b strings.Builder
	for text != "" {
		end := strings.IndexAny(text, " \n\t")
		if end < 0 {
			end = len(text)
		}
		if w := text[:end]; len(w) > maxWordBytes {
			b.WriteString(elide(w, wordHead, wordTail, " bytes"))
		} else {
			b.WriteString(w)
		}
		if end < len(text) {
			b.WriteByte(text[end])
			end++
		}
		text = text[end:]
	}
	return b.String()
}

// shortenPath shortens one path, if it is long.
func shortenPath(p string) string {
	if len(p) <= maxPathBytes && strings.Count(p, ".")+strings.Count(p, "[") <= maxSteps {
		return p
	}
	steps := splitSteps(p)
	if len(steps) <= maxSteps && len(p) <= maxPathBytes {
		return p
	}
	if len(steps) <= 2*keptSteps {
		return joinSteps(steps)
	}
	left := len(steps) - 2*keptSteps
	return joinSteps(steps[:keptSteps]) + " … (" + thousands(left) + " more) … " + joinSteps(steps[len(steps)-keptSteps:])
}

func splitSteps(p string) []string {
	var steps []string
	for p != "" {
		n := len(step.FindString(p))
		if n == 0 {
			n = len(p) // not reached: p is a path
		}
		steps, p = append(steps, p[:n]), p[n:]
	}
	return steps
}

// joinSteps writes steps, each long one shortened.
func joinSteps(steps []string) string {
	var b strings.Builder
	for _, s := range steps {
		if len(s) > maxStepBytes {
			s = elide(s, stepHead, stepTail, " bytes")
		}
		b.WriteString(s)
	}
	return b.String()
}

// elide keeps about head bytes of s and tail bytes, cut at characters,
// around the count of bytes left out: "aaaa… (9,904 more bytes) …zzzz".
func elide(s string, head, tail int, unit string) string {
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	end := len(s) - tail
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	if end <= head {
		return s
	}
	return s[:head] + "… (" + thousands(end-head) + " more" + unit + ") …" + s[end:]
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
