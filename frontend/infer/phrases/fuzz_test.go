package phrases

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
		ctx := Context{Name: name, Kind: name, Names: map[string]bool{name: true}}
		for _, s := range Sentences(text) {
			Read(s, ctx)
			if q := Quote(s, 20); utf8.RuneCountInString(q) > 20 {
				t.Fatalf("Quote(%q, 20) = %q", s, q)
			}
		}
	})
}
