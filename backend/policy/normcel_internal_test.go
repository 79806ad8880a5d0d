package policy

import (
	"testing"

	"github.com/mut2cel/mut2cel/decl"
)

func TestPointerAndLiterals(t *testing.T) {
	node := decl.Path{{Name: "spec"}, {Name: "a/b~c"}}
	if got, want := pointer(node, "x~/y"), "/spec/a~1b~0c/x~0~1y"; got != want {
		t.Errorf("pointer = %q, want %q", got, want)
	}
	for in, want := range map[string]string{
		"type":    `'type'`,
		"it's":    `"it's"`,
		`a\b`:     `"a\\b"`,
		"line\nx": `"line\nx"`,
		"é":       `'é'`,
	} {
		if got := celString(in); got != want {
			t.Errorf("celString(%q) = %s, want %s", in, got, want)
		}
	}
	if got, want := commentName("a\nb"), `["a\nb"]`; got != want {
		t.Errorf("commentName = %s, want %s", got, want)
	}
}
