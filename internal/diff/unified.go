package diff

import (
	"bytes"
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change.
const context = 3

// Unified returns the unified diff that turns a into b, with the headers
// "--- nameA" and "+++ nameB", or nil when a and b are equal.
func Unified(nameA, nameB string, a, b []byte) []byte {
	if bytes.Equal(a, b) {
		return nil
	}
	la, lb := splitLines(a), splitLines(b)
	ops := lines(la, lb)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	for _, h := range hunks(ops) {
		writeHunk(&out, ops[h[0]:h[1]], la, lb)
	}
	return out.Bytes()
}

// splitLines cuts text after every newline; the last line may lack one.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// hunks groups the script into ranges [from, to) of ops: every change
// with up to context unchanged lines around it, joining changes that are
// closer than twice that.
func hunks(ops []op) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		from, end := max(0, i-context), i
		for end < len(ops) {
			next := end
			for next < len(ops) && ops[next].kind == ' ' {
				next++
			}
			if next == len(ops) || next-end > 2*context {
				break
			}
			for next < len(ops) && ops[next].kind != ' ' {
				next++
			}
			end = next
		}
		to := min(len(ops), end+context)
		out = append(out, [2]int{from, to})
		i = to
	}
	return out
}

// writeHunk writes one hunk: its header with 1-based start lines and
// counts (a start of 0 for an empty range), then its lines.
func writeHunk(out *bytes.Buffer, ops []op, a, b []string) {
	var na, nb int
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", span(ops[0].a, na), span(ops[0].b, nb))
	for _, o := range ops {
		line := ""
		switch o.kind {
		case '+':
			line = b[o.b]
		default:
			line = a[o.a]
		}
		out.WriteByte(o.kind)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
