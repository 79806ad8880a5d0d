package diag

import (
	"math/rand/v2"
	"testing"
)

func TestClosest(t *testing.T) {
	known := []string{"mut2cel.io/declarations", "mut2cel.io/generated"}
	for _, c := range []struct {
		word, want string
		ok         bool
	}{
		{"mut2cel.io/declaration", "mut2cel.io/declarations", true},
		{"mut2cel.io/Declarations", "mut2cel.io/declarations", true},
		{"mut2cel/declarations", "mut2cel.io/declarations", true},
		{"mut2cel.io/generate", "mut2cel.io/generated", true},
		{"mut2cel.io/owner", "", false},
	} {
		got, ok := Closest(c.word, known)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", c.word, got, ok, c.want, c.ok)
		}
	}
}

func TestTypos(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"mutability", "mutabilty", 1},
		{"mutability", "mutablity", 1}, // a swap of neighbours is one edit
		{"update", "updates", 1},
		{"kitten", "sitting", 3},
	} {
		if got := Typos(c.a, c.b); got != c.want {
			t.Errorf("Typos(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Typos(c.b, c.a); got != c.want {
			t.Errorf("Typos(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

// TestTyposRows holds the three-row distance to the whole table it
// replaces, on random words over a small alphabet (so that swaps and
// repeats are frequent).
func TestTyposRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = "abcx-"[rng.IntN(5)]
		}
		return string(b)
	}
	for range 5000 {
		a, b := word(), word()
		if got, want := Typos(a, b), typosTable(a, b); got != want {
			t.Fatalf("Typos(%q, %q) = %d, the whole table says %d", a, b, got, want)
		}
	}
}

// typosTable is the optimal string alignment distance with the whole
// table.
func typosTable(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
