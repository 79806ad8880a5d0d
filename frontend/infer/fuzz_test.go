package infer

import (
	"testing"
	"unicode/utf8"
)

// FuzzDescription reads untrusted description text: splitting, the
// phrasings and their qualifiers, the subject and the quote must neither
// panic nor quote more than asked.
func FuzzDescription(f *testing.F) {
	for _, s := range []string{
		"This field is immutable.", "Once set, this field cannot be changed.",
		"queueName cannot be changed while .status.admission is not null.",
		"All fields within the CertificateRequest's `spec` are immutable after creation.",
		"e.g. x. Immutable. 18. podSets cannot be changed.\n- a\n1. b",
		"admission can be set back to null, but its fields cannot be changed once set.",
		"\xff\xfe immutable \u202e once set", "",
	} {
		f.Add(s, "field")
	}
	f.Fuzz(func(t *testing.T, text, name string) {
		ctx := sentenceContext{name: name, kind: name, names: map[string]bool{name: true}}
		for _, s := range sentences(text) {
			readSentence(s, ctx)
			if q := quote(s, 20); utf8.RuneCountInString(q) > 20 {
				t.Fatalf("quote(%q, 20) = %q", s, q)
			}
		}
	})
}

// FuzzRule reads untrusted rule text with every reader of shapes.
func FuzzRule(f *testing.F) {
	for _, s := range []string{
		"self == oldSelf", "!has(oldSelf.x) || (has(self.x) && self.x == oldSelf.x)",
		"oldSelf.all(x, x in self)", "[has(self.a), has(self.b)].filter(x, x).size() <= 1",
		"(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 1", "self.type == 'A' ? has(self.a) : !has(self.a)",
		"oldSelf.?x.orValue('') == self.x", "self.__namespace__ == oldSelf.__namespace__", "has(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rule string) {
		p, ok := parseRule(rule)
		if !ok {
			return
		}
		for _, conj := range conjuncts(p.expr) {
			collectionShape(conj)
			transitions(p, conj, true, true)
			unionShape(p, conj)
		}
	})
}
