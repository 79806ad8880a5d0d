package diff

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestUnified(t *testing.T) {
	for _, c := range []struct{ name, a, b, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one change", "a\nb\nc\n", "a\nB\nc\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"from empty", "", "a\n", "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"},
		{"to empty", "a\nb\n", "", "--- x\n+++ y\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"final newline added", "a", "a\n", "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"insert in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nx\n5\n6\n7\n8\n",
			"--- x\n+++ y\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+x\n 5\n 6\n 7\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n",
			"--- x\n+++ y\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -10,3 +11,4 @@\n 10\n 11\n 12\n+13\n"},
		{"joined hunks", "1\n2\n3\n4\n5\n6\n7\n", "1\nA\n3\n4\n5\n6\nB\n",
			"--- x\n+++ y\n@@ -1,7 +1,7 @@\n 1\n-2\n+A\n 3\n 4\n 5\n 6\n-7\n+B\n"},
	} {
		if got := string(Unified("x", "y", []byte(c.a), []byte(c.b))); got != c.want {
			t.Errorf("%s: Unified(%q, %q) =\n%s\nwant\n%s", c.name, c.a, c.b, got, c.want)
		}
	}
}

// TestUnifiedRandom diffs random edits of random files, applies the diff
// and checks the result, and checks that the script is no longer than the
// edits that made the second file.
func TestUnifiedRandom(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	for i := 0; i < 500; i++ {
		a := randomLines(rng, rng.Intn(40))
		b, edits := mutate(rng, a)
		da, db := strings.Join(a, ""), strings.Join(b, "")
		if rng.Intn(4) == 0 {
			db = strings.TrimSuffix(db, "\n")
		}
		out := Unified("a", "b", []byte(da), []byte(db))
		got, err := apply(da, string(out))
		if err != nil || got != db {
			t.Fatalf("applying the diff of %q -> %q gives %q (%v); diff:\n%s", da, db, got, err, out)
		}
		if n := changedLines(string(out)); n > edits+2 {
			t.Errorf("diff of %q -> %q changes %d lines, the edits only %d:\n%s", da, db, n, edits, out)
		}
	}
}

func randomLines(rng *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = strconv.Itoa(rng.Intn(6)) + "\n" // few values: many equal lines
	}
	return lines
}

// mutate deletes and inserts lines and returns how many it changed.
func mutate(rng *rand.Rand, a []string) ([]string, int) {
	var b []string
	edits := 0
	for _, l := range a {
		switch rng.Intn(8) {
		case 0:
			edits++
		case 1:
			b = append(b, "new\n", l)
			edits++
		default:
			b = append(b, l)
		}
	}
	return b, edits
}

func changedLines(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			n++
		}
	}
	return n
}

// apply applies a unified diff to text, as patch(1) does without fuzz.
func apply(text, d string) (string, error) {
	if d == "" {
		return text, nil
	}
	a := splitLines([]byte(text))
	var out []string
	pos := 0
	lines := strings.SplitAfter(d, "\n")
	for i := 2; i < len(lines) && lines[i] != ""; i++ {
		var start, n, s2, n2 int
		hdr := strings.TrimSpace(lines[i])
		if _, err := fmt.Sscanf(strings.NewReplacer(",", " ", "-", "", "+", "").Replace(hdr), "@@ %d %d %d %d @@", &start, &n, &s2, &n2); err != nil {
			if _, err := fmt.Sscanf(normalizeHeader(hdr), "@@ %d %d %d %d @@", &start, &n, &s2, &n2); err != nil {
				return "", fmt.Errorf("bad header %q", hdr)
			}
		}
		from := start - 1
		if n == 0 {
			from = start
		}
		out, pos = append(out, a[pos:from]...), from
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "@@") {
			i++
			l := lines[i]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\ No newline") {
				l = strings.TrimSuffix(l, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				out, pos = append(out, l[1:]), pos+1
			case '-':
				if pos >= len(a) || a[pos] != l[1:] {
					return "", fmt.Errorf("line %d is %q, the diff removes %q", pos+1, a[min(pos, len(a)-1)], l[1:])
				}
				pos++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	return strings.Join(append(out, a[pos:]...), ""), nil
}

// normalizeHeader writes the short forms "-3" and "+0,0" in full.
func normalizeHeader(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.NewReplacer(",", " ", "-", "", "+", "").Replace(strings.Join(f, " "))
}

// TestUnifiedRewritten diffs two large files with no line in common and
// one with scattered changes: past maxCost a region is replaced whole, and
// the diff still applies.
func TestUnifiedRewritten(t *testing.T) {
	var a, b, c strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
		if i%100 == 0 {
			c.WriteString("inserted\n")
		}
		fmt.Fprintf(&c, "a%d\n", i)
	}
	for _, other := range []string{b.String(), c.String()} {
		out := Unified("a", "b", []byte(a.String()), []byte(other))
		if got, err := apply(a.String(), string(out)); err != nil || got != other {
			t.Errorf("the diff of a large file does not apply: %v", err)
		}
	}
	if n := changedLines(string(Unified("a", "c", []byte(a.String()), []byte(c.String())))); n != 200 {
		t.Errorf("200 scattered insertions give %d changed lines", n)
	}
}

func BenchmarkUnifiedScattered(b *testing.B) {
	var x, y strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&x, "line %d\n", i)
		if i%50 == 0 {
			y.WriteString("    x-kubernetes-validations:\n")
		}
		fmt.Fprintf(&y, "line %d\n", i)
	}
	for i := 0; i < b.N; i++ {
		Unified("a", "b", []byte(x.String()), []byte(y.String()))
	}
}
