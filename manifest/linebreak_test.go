package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/edit"
)

// lineBreaks are the line breaks the YAML parser counts besides "\n" and
// "\r\n"; each once made Apply index past the end of the text.
var lineBreaks = map[string]string{"CR": "\r", "NEL": "\u0085", "LS": "\u2028", "PS": "\u2029"}

// TestApplyLineBreaks edits documents that hold every line break the
// parser counts: Apply must not panic, its result must decode to the
// intended value and keep the breaks, and lines are those of the file
// counted at "\n", as editors and grep count them.
func TestApplyLineBreaks(t *testing.T) {
	for name, br := range lineBreaks {
		t.Run(name, func(t *testing.T) {
			in := "# one" + strings.Repeat(br+"# more", 40) + "\n" +
				"spec:\n  description: a" + br + "    b\n  x: 1\n  w:\n  - z # c" + br + "  # d\n"
			f, err := Parse("b.yaml", []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			d := f.Docs[0]
			for _, c := range []struct {
				path []interface{}
				want int
			}{{[]interface{}{"spec"}, 2}, {[]interface{}{"spec", "x"}, 4}, {[]interface{}{"spec", "w", 0}, 6}} {
				if got := d.Line(c.path); got != c.want {
					t.Errorf("Line(%v) = %d, want %d", c.path, got, c.want)
				}
			}
			edits := []edit.Edit{{Path: []interface{}{"spec"}, Remove: []string{"x"}, AddRules: rules("self == oldSelf")}}
			want, err := edit.Apply(d.Value(), edits)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Apply(edits); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			again, err := Parse("b.yaml", f.Bytes())
			if err != nil {
				t.Fatalf("the edited file does not parse: %v\n%q", err, f.Bytes())
			}
			if got := again.Docs[0].Value(); !reflect.DeepEqual(got, want) {
				t.Errorf("the edited document decodes to %v, want %v", got, want)
			}
			if n := strings.Count(string(f.Bytes()), br); n != 42 || d.Reformatted() {
				t.Errorf("the edited document keeps %d of the 42 line breaks %q (reformatted: %v):\n%q", n, br, d.Reformatted(), f.Bytes())
			}
		})
	}
}

// TestParseLineBreaks: a document start marker after any line break
// starts a document, as for the parser, and errors name lines of the
// file.
func TestParseLineBreaks(t *testing.T) {
	for name, br := range lineBreaks {
		t.Run(name, func(t *testing.T) {
			in := "a: 1" + br + "---" + br + "b: 2\n"
			checkRoundTrip(t, name, []byte(in))
			f, _ := Parse("s.yaml", []byte(in))
			if len(f.Docs) != 2 || f.Docs[1].StartLine() != 1 || f.Docs[1].Value()["b"] != int64(2) {
				t.Errorf("Parse(%q) = %d documents, the second at line %d with %v; want 2, the second at line 1 with b: 2",
					in, len(f.Docs), f.Docs[len(f.Docs)-1].StartLine(), f.Docs[len(f.Docs)-1].Value())
			}
			bad := "a: 1" + br + "b: 2\nc: d: e\n"
			want := "s.yaml:2: mapping values are not allowed in this context"
			if _, err := Parse("s.yaml", []byte(bad)); err == nil || err.Error() != want {
				t.Errorf("Parse(%q) error = %v, want %s", bad, err, want)
			}
		})
	}
}
