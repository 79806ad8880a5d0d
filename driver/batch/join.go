package batch

import (
	"bytes"
)

// Join concatenates the outputs of several inputs into one stream. Where a
// part does not begin with a "---" line, one is put in front, so that the
// last document of one file and the first of the next stay apart; a part
// that lacks a final newline gets one first.
func Join(parts [][]byte) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if b.Len() > 0 {
			if !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
				b.WriteByte('\n')
			}
			if !startsWithSeparator(p) {
				b.WriteString("---\n")
			}
		}
		b.Write(p)
	}
	return b.Bytes()
}

// startsWithSeparator reports whether the first line of p that is not blank
// or a comment is a "---" document start.
func startsWithSeparator(p []byte) bool {
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0 || t[0] == '#':
			continue
		case bytes.HasPrefix(line, []byte("---")) && (len(t) == 3 || line[3] == ' ' || line[3] == '\t'):
			return true
		}
		return false
	}
	return false
}
