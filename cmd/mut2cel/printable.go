package main

import (
	"io"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// printableWriter passes what is written through it to w with its control
// characters escaped (diag.Printable), newlines and tabs aside. Messages
// and reports quote property names, file names and CRD names from the
// input, and an escape sequence among them must reach the terminal as
// text, not act on it. runWith puts standard error behind one, so that
// every message passes it; the text reports of verify and cost use one on
// standard output. Manifests and diffs, which are data, do not.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, diag.Printable(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
