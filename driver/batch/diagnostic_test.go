package batch

import (
	"strings"
	"testing"
)

// TestCapped: a file with more than MaxPerFile problems shows the first
// ones and a count of the rest; other files and diagnostics without a
// file are untouched, in their order.
func TestCapped(t *testing.T) {
	many := func(file string, n int) []Diagnostic {
		var out []Diagnostic
		for i := 1; i <= n; i++ {
			out = append(out, Diagnostic{File: file, Line: i, Detail: "bad"})
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []Diagnostic
		want []string
	}{
		{"few", many("a.yaml", 2), []string{"a.yaml:1: bad", "a.yaml:2: bad"}},
		{"exactly the cap", many("a.yaml", MaxPerFile), nil},
		{"over the cap", append(many("a.yaml", 100000), Diagnostic{Detail: "no file"}),
			[]string{"a.yaml:9: bad", "a.yaml:10: bad", "a.yaml: too many problems: 99990 more in this file not shown", "no file"}},
		{"files apart", append(many("a.yaml", 11), many("b.yaml", 1)...),
			[]string{"a.yaml:10: bad", "a.yaml: too many problems: 1 more in this file not shown", "b.yaml:1: bad"}},
	} {
		got := Capped(c.in)
		var lines []string
		for _, d := range got {
			lines = append(lines, d.String())
		}
		if c.want == nil {
			if len(got) != len(c.in) {
				t.Errorf("%s: Capped kept %d of %d", c.name, len(got), len(c.in))
			}
			continue
		}
		if n := len(c.want); len(lines) < n || strings.Join(lines[len(lines)-n:], "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: Capped ends with\n%s\nwant\n%s", c.name, strings.Join(lines, "\n"), strings.Join(c.want, "\n"))
		}
		if len(lines) > 2*(MaxPerFile+1) {
			t.Errorf("%s: Capped kept %d lines", c.name, len(lines))
		}
	}
}

// TestFirstReasons: a refusal prints its reasons one a line; cut to the
// first few, it counts the others and says how to see them.
func TestFirstReasons(t *testing.T) {
	d := Diagnostic{File: "f.yaml", Line: 3, Detail: "cannot be translated exactly, for 4 reasons:", Reasons: []string{"a", "b", "c", "d"}}
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{"all", d, "f.yaml:3: cannot be translated exactly, for 4 reasons:\n  - a\n  - b\n  - c\n  - d"},
		{"first two", d.FirstReasons(2, "(-v lists them)"), "f.yaml:3: cannot be translated exactly, for 4 reasons:\n  - a\n  - b\n  and 2 more (-v lists them)"},
		{"as many as there are", d.FirstReasons(4, "(-v lists them)"), d.String()},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%s: String() =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
	if len(d.Reasons) != 4 {
		t.Errorf("FirstReasons changed the reasons of the diagnostic it was called on: %q", d.Reasons)
	}
}
