package costrun

import (
	"math"
	"strings"
	"testing"
)

func TestWriteWrapped(t *testing.T) {
	word := func(n int) string { return strings.Repeat("w", n) }
	for _, c := range []struct {
		name, indent, text string
		want               []string
	}{
		{"empty", "", "", []string{""}},
		{"short", "  ", "a b", []string{"  a b"}},
		{"exactly the width", "  ", word(Width-4) + " b", []string{"  " + word(Width-4) + " b"}},
		{"one over the width", "  ", word(Width-3) + " b", []string{"  " + word(Width-3), "    b"}},
		{"spaces at the break", "", word(Width-3) + "   b", []string{word(Width - 3), "  b"}},
		{"at the last space that fits", "", "a " + word(Width-4) + " b c", []string{"a " + word(Width-4) + " b", "  c"}},
		// A word longer than the line is not cut: it is a name or a path
		// the reader may copy.
		{"word longer than the width", "  ", "a " + word(Width+5) + " b", []string{"  a", "    " + word(Width+5), "    b"}},
		{"only a long word", "", word(Width + 1), []string{word(Width + 1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			writeWrapped(&b, c.indent, c.text)
			if got, want := b.String(), strings.Join(c.want, "\n")+"\n"; got != want {
				t.Errorf("writeWrapped(%q, %q) =\n%q\nwant\n%q", c.indent, c.text, got, want)
			}
		})
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		s    string
		room int
		want string
	}{
		{"", 5, ""},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "ab..."},
		// Runes, not bytes: a cut never splits a character.
		{"ééééé", 5, "ééééé"},
		{"éééééé", 5, "éé..."},
	} {
		if got := shorten(c.s, c.room); got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.s, c.room, got, c.want)
		}
	}
}

func TestFactorShare(t *testing.T) {
	for _, c := range []struct {
		cost, limit   uint64
		factor, share string
	}{
		{0, 1000, "0.00x", "0.00%"},
		{5, 1000, "0.01x", "0.50%"},
		{1000, 1000, "1.00x", "100.00%"},
		{100000, 1000, "100.00x", "10000.00%"},
		// Past 100 times the limit the figure says nothing more: the rule
		// is quadratic or worse.
		{100001, 1000, "more than 100x", ">10000%"},
		{math.MaxUint64, 10000000, "more than 100x", ">10000%"},
	} {
		if got := factor(c.cost, c.limit); got != c.factor {
			t.Errorf("factor(%d, %d) = %q, want %q", c.cost, c.limit, got, c.factor)
		}
		if got := share(c.cost, c.limit); got != c.share {
			t.Errorf("share(%d, %d) = %q, want %q", c.cost, c.limit, got, c.share)
		}
	}
}
