package phrases

import (
	"regexp"
	"strings"
	"unicode"
)

// The subject of a description's sentence is the text before its
// phrasing (after an opening condition, in the last clause). It is the
// field itself when it is
//
//   - empty ("Cannot be updated.", Kubernetes' own style),
//   - a pronoun or a noun for a field ("It", "This field", "The value"),
//   - the field's own name ("podSets cannot be changed",
//     "The controllerName field is immutable"),
//   - words that name nothing else ("Populated by the webhook on creation
//     and immutable").
//
// It speaks of something else when it names another property of the CRD
// or a capitalized name that is not the field's or the kind's ("All
// fields within the CertificateRequest's `spec` are immutable"), and of
// the fields inside when it says "its fields". Such sentences are not
// taken for the field they stand on.

var words = regexp.MustCompile(`[a-z0-9_][a-z0-9_.\-]*`)

// fillers say nothing of what the subject is.
var fillers = map[string]bool{
	"the": true, "this": true, "that": true, "these": true, "those": true, "a": true, "an": true,
	"its": true, "their": true, "such": true, "said": true, "also": true, "then": true, "so": true,
	"therefore": true, "now": true, "note": true, "important": true, "however": true, "hence": true,
}

// fieldNouns name a field without naming which.
var fieldNouns = map[string]bool{
	"field": true, "value": true, "setting": true, "property": true, "attribute": true, "option": true,
	"parameter": true, "it": true, "list": true, "map": true, "array": true, "set": true,
}

// plural nouns for what a field holds: "its fields", "all values".
var inside = map[string]bool{"fields": true, "values": true, "entries": true, "items": true, "properties": true}

// subject classifies the subject of a description's sentence.
func (st *Statement) subject(subject, sentence string, ctx Context) {
	subject = lastClause(subject)
	toks := words.FindAllString(subject, -1)
	own := Squash(ctx.Name)
	capital := capitalized(sentence)
	var rest []string
	for _, t := range toks {
		t = strings.Trim(t, ".-")
		if !fillers[t] && t != "" {
			rest = append(rest, t)
		}
	}
	if names(rest, own) {
		return
	}
	for _, t := range rest {
		switch {
		case inside[t]:
			st.fields = true
		case fieldNouns[t], own != "" && lastStep(t) == own, t == ctx.Kind:
		case ctx.Names[lastStep(t)] || capital[t] || strings.Contains(t, "."):
			st.Others = append(st.Others, t)
		}
	}
	switch {
	case len(st.Others) > 0 && st.Doubt == "":
		st.Doubt = "it speaks of " + strings.Join(st.Others, ", ") + ", not of this field"
	case st.fields && st.Doubt == "":
		st.Doubt = "it speaks of the fields inside, not of the field as a whole"
	}
}

// names reports whether the subject words are the field's own name, as
// one word or spelt apart ("controller name").
func names(rest []string, own string) bool {
	return own != "" && len(rest) > 0 && Squash(strings.Join(rest, "")) == own
}

// lastClause is the clause the phrasing belongs to: "admission can be
// set back to null, but its fields" speaks of "its fields".
func lastClause(s string) string {
	for _, sep := range []string{"; ", ", but ", " but ", ", and ", ", so ", ", however, "} {
		if i := strings.LastIndex(s, sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	return s
}

// Squash is a name in lower case without separators.
func Squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func lastStep(t string) string {
	if i := strings.LastIndex(t, "."); i >= 0 {
		return Squash(t[i+1:])
	}
	return Squash(t)
}

// capitalized are the words of a sentence, in lower case, that are
// written with a capital letter other than at its start, or in
// backquotes: names of things.
func capitalized(sentence string) map[string]bool {
	out := map[string]bool{}
	for i, w := range strings.Fields(sentence) {
		quoted := strings.Contains(w, "`")
		w = strings.Trim(w, "`'\".,;:()[]")
		if w == "" {
			continue
		}
		upper := false
		for j, r := range w {
			if unicode.IsUpper(r) && (i > 0 || j > 0) {
				upper = true
			}
		}
		if upper || quoted {
			out[strings.ToLower(strings.TrimSuffix(w, "'s"))] = true
		}
	}
	return out
}
