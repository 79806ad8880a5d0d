package diag

import "testing"

func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"spec.class", "spec.class"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"日本 \uFFFD", "日本 \uFFFD"},
		{"x\x1b[31mred\x1b[0m", `x\x1b[31mred\x1b[0m`},
		{"over\rwrite\a\b", `over\rwrite\a\b`},
		{"del\x7f c1\u009b[2J", `del\x7f c1\u009b[2J`},
		{"bidi \u202etxt.exe\u2066", `bidi \u202etxt.exe\u2066`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
		{"line\u2028sep", `line\u2028sep`},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
