// Package fidelity checks, for tests, what translate -w and patch promise
// about the files they rewrite: outside the edits, the output is the input
// byte for byte. It compares the two texts line by line (a shortest line
// diff, from internal/diff) and judges every line that differs:
//
//   - a line of the input that the output drops must be one the caller
//     says an edit owns (RuleLines gives the lines of the input's rule
//     lists, which edits that remove rules own);
//   - a line the output adds must be one an edit writes (EditLine): a
//     rule, a validations key, a bound, or the mut2cel.io annotations.
//
// A changed line is a dropped line and an added one, so a joined or
// re-wrapped description fails both ways.
package fidelity

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mut2cel/mut2cel/internal/diff"
)

// Line is one line of a text, numbered from 1, with its terminator.
type Line struct {
	N    int
	Text string
}

// Changes returns the lines of in that out drops and the lines out adds,
// each numbered in its own text.
func Changes(in, out []byte) (dropped, added []Line) {
	var a, b int // lines consumed so far in in and out
	for _, l := range strings.SplitAfter(string(diff.Unified("in", "out", in, out)), "\n") {
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, `\`), l == "":
		case strings.HasPrefix(l, "@@ "):
			a, b = hunkStart(l)
		case l[0] == ' ':
			a, b = a+1, b+1
		case l[0] == '-':
			a++
			dropped = append(dropped, Line{a, l[1:]})
		case l[0] == '+':
			b++
			added = append(added, Line{b, l[1:]})
		}
	}
	return dropped, added
}

// hunkStart reads "@@ -A,n +B,m @@" and returns the lines before the
// hunk's first: A-1 and B-1 (A and B when the range is empty).
func hunkStart(header string) (a, b int) {
	f := strings.Fields(header)
	return spanStart(f[1]), spanStart(f[2])
}

func spanStart(s string) int {
	start, count, _ := strings.Cut(s[1:], ",")
	n, _ := strconv.Atoi(start)
	if count == "0" {
		return n
	}
	return n - 1
}

// Check fails t, naming file, for every line of in that out drops unless
// owned holds its number, and for every line out adds that EditLine does
// not accept.
func Check(t testing.TB, file string, in, out []byte, owned map[int]bool) {
	t.Helper()
	for _, problem := range Problems(in, out, owned) {
		t.Errorf("%s: %s", file, problem)
	}
}

// Problems is Check's findings, one a line.
func Problems(in, out []byte, owned map[int]bool) []string {
	var problems []string
	dropped, added := Changes(in, out)
	for _, l := range dropped {
		if !owned[l.N] {
			problems = append(problems, fmt.Sprintf("line %d of the input is changed or gone outside the edits: %q", l.N, l.Text))
		}
	}
	block := -1 // indentation of the annotation whose block scalar the added lines are in
	for i, l := range added {
		if i == 0 || added[i-1].N != l.N-1 {
			block = -1
		}
		indent := len(l.Text) - len(strings.TrimLeft(l.Text, " "))
		switch {
		case block >= 0 && indent > block:
		case annotationKey(l.Text):
			block = indent
		case EditLine(l.Text):
			block = -1
		default:
			problems = append(problems, fmt.Sprintf("line %d of the output is not the input's and no edit writes it: %q", l.N, l.Text))
		}
	}
	return problems
}

// annotationKey reports whether line starts one of the annotations that
// translate writes, whose block scalar follows on the lines indented
// further.
func annotationKey(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "mut2cel.io/declarations: ") || strings.HasPrefix(t, "mut2cel.io/generated: ")
}

// EditLine reports whether line is one an edit writes on a line of its
// own: a validations key, a field of a rule, a bound translate adds, or
// the annotations key it creates.
func EditLine(line string) bool {
	t := strings.TrimPrefix(strings.TrimSpace(line), "- ")
	if t == "x-kubernetes-validations:" || t == "annotations:" {
		return true
	}
	for _, p := range []string{"rule: ", "message: ", "messageExpression: ", "reason: ", "fieldPath: ", "optionalOldSelf: ", "maxLength: ", "maxItems: ", "maxProperties: "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return annotationKey(line)
}

// RuleLines returns the numbers of the lines of text that hold an
// x-kubernetes-validations list: its key and everything below it, up to
// the next line indented no further than the key that is not one of the
// list's dashes. Edits that remove or replace rules own these lines.
func RuleLines(text []byte) map[int]bool {
	lines := strings.SplitAfter(string(text), "\n")
	owned := map[int]bool{}
	for i := 0; i < len(lines); i++ {
		key := lines[i]
		if strings.TrimSpace(key) != "x-kubernetes-validations:" {
			continue
		}
		indent := indentOf(key)
		owned[i+1] = true
		for i+1 < len(lines) && lines[i+1] != "" {
			l := lines[i+1]
			if in := indentOf(l); strings.TrimSpace(l) != "" && in <= indent && !(in == indent && strings.HasPrefix(strings.TrimSpace(l), "- ")) {
				break
			}
			i++
			owned[i+1] = true
		}
	}
	return owned
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
