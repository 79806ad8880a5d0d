package phrases

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDescription bounds the text read of one description or message:
// the phrasings are short and near the field's own words, and a longer
// text would only cost time.
const maxDescription = 16 << 10

// abbreviations end with a period that ends no sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"no": true, "incl": true, "resp": true, "min": true, "max": true,
}

// Sentences splits text into sentences: at a period, question or
// exclamation mark followed by a space and a letter, a digit or a quote
// (Kubernetes' descriptions open sentences with a field's name in lower
// case: "podSets cannot be changed."), unless the period ends an
// abbreviation; at blank lines and at list items. Whitespace within a
// sentence is made one space.
func Sentences(text string) []string {
	if len(text) > maxDescription {
		text = text[:maxDescription]
	}
	var out []string
	for _, para := range paragraphs(text) {
		out = append(out, splitParagraph(para)...)
	}
	return out
}

// paragraphs splits at blank lines and at lines that start a list item
// ("- ", "* ", "1. ").
func paragraphs(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.Join(strings.Fields(cur.String()), " "); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || listNumber(t) {
			flush()
		}
		cur.WriteString(t)
		cur.WriteByte(' ')
	}
	flush()
	return out
}

func listNumber(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

func splitParagraph(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' || i+2 >= len(p) || p[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[i+2:])
		if !unicode.IsLetter(next) && !unicode.IsDigit(next) && !strings.ContainsRune("\"'`(", next) {
			continue
		}
		if c == '.' && abbreviations[strings.ToLower(lastWord(p[start:i]))] {
			continue
		}
		out = append(out, p[start:i+1])
		start = i + 2
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

// lastWord is the last run of letters and periods of s.
func lastWord(s string) string {
	i := len(s)
	for i > 0 && (isLetter(s[i-1]) || s[i-1] == '.') {
		i--
	}
	return s[i:]
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Normalized is a sentence as the phrasings match it: lower case, typographic
// quotes and dashes made plain, backquotes dropped, one space.
func Normalized(s string) string {
	s = strings.NewReplacer("’", "'", "‘", "'", "“", "\"", "”", "\"", "`", "", "–", "-", "—", "-").Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Quote bounds s to at most n characters (runes), on one line, marking a
// cut with an ellipsis, so that evidence comments stay short whatever the
// CRD holds.
func Quote(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
