package diag

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Property names, file names and CRD names come from the input, and a
// terminal acts on the control characters they may hold: ESC starts an
// escape sequence (colours, cursor moves, a window title), a bare CR
// overwrites the line, the bidirectional controls reorder what is shown.
// Every message that quotes such text passes through Printable, or through
// JSONString, which escapes the same characters.

// Printable returns s with every character a terminal would act on, other
// than newline and tab, written as a Go escape (\x1b, \r, \u202e), and
// bytes that are not UTF-8 as \xNN. Printable text is returned as it is.
func Printable(s string) string {
	if IsPrintable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case UnsafeRune(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// IsPrintable reports whether Printable leaves s as it is.
func IsPrintable(s string) bool {
	for i, r := range s {
		if UnsafeRune(r) || r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return false
		}
	}
	return true
}

// UnsafeRune reports whether a terminal may act on r rather than show it:
// C0 and C1 controls and DEL (newline and tab aside), the line and
// paragraph separators, and the bidirectional formatting characters.
func UnsafeRune(r rune) bool {
	switch {
	case r == '\n', r == '\t':
		return false
	case unicode.IsControl(r), r == 0x2028, r == 0x2029, r == 0xFEFF:
		return true
	}
	return unicode.Is(unicode.Bidi_Control, r)
}
