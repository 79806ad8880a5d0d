package manifest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// New string scalars are written so that both YAML 1.1 (kubectl,
// sigs.k8s.io/yaml) and YAML 1.2 (yaml.v3 and most editors) read back the
// same string:
//   - plain, when both parsers read the bare text as that very string;
//   - single-quoted for other one-line text ('' for '), double-quoted when
//     the text holds ' but no " or \, which reads better for CEL literals;
//   - a literal block (|, |- or |+) for several lines of printable text;
//   - double-quoted with escapes for everything else: control characters,
//     characters YAML 1.1 counts as line breaks (U+0085, U+2028, U+2029),
//     a byte order mark, or lines a block cannot hold.

// scalarStyle picks the style for a new string scalar.
func scalarStyle(s string) yaml.Style {
	switch {
	case !strings.Contains(s, "\n"):
		if !quotable(s) {
			return yaml.DoubleQuotedStyle
		}
		if plainSafe(s) {
			return 0
		}
		if strings.Contains(s, "'") && !strings.ContainsAny(s, `"\`) {
			return yaml.DoubleQuotedStyle
		}
		return yaml.SingleQuotedStyle
	case literalSafe(s):
		return yaml.LiteralStyle
	}
	return yaml.DoubleQuotedStyle
}

// renderScalar writes s for the value position of a key whose line is
// indented by indent. The first string goes on the key's line after ": ";
// the others are whole lines (block scalar content).
func renderScalar(s string, indent int) (string, []string) {
	switch scalarStyle(s) {
	case 0:
		return s, nil
	case yaml.SingleQuotedStyle:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
	case yaml.LiteralStyle:
		return literal(s, indent+2)
	}
	return doubleQuoted(s), nil
}

// quotable reports whether every character of s can stand unescaped in a
// single-quoted or plain scalar.
func quotable(s string) bool {
	for _, r := range s {
		if !printable(r) || r == '\t' {
			return false
		}
	}
	return true
}

// printable is YAML's c-printable minus the characters that YAML 1.1 reads
// as line breaks and the byte order mark.
func printable(r rune) bool {
	switch {
	case r == utf8.RuneError, r == 0x85, r == 0x2028, r == 0x2029, r == 0xFEFF:
		return false
	case r == '\t' || r >= 0x20 && r <= 0x7E:
		return true
	case r < 0xA0:
		return false
	}
	return r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// plainSafe reports whether s can be written unquoted: no indicator at the
// start, no ": " or " #" inside, no surrounding spaces, and both YAML
// versions read it back as the same string (not true, 1e3, null, ~, ...).
func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	return readsAsString(s, s)
}

// readsAsString checks that text, as the value of a key, reads back as s in
// YAML 1.2 (yaml.v3) and in YAML 1.1 (sigs.k8s.io/yaml).
func readsAsString(text, s string) bool {
	doc := []byte("k: " + text + "\n")
	var v3 map[string]interface{}
	if err := yaml.Unmarshal(doc, &v3); err != nil || v3["k"] != s {
		return false
	}
	var v1 map[string]interface{}
	if err := sigsyaml.Unmarshal(doc, &v1); err != nil || v1["k"] != s {
		return false
	}
	return true
}

// literalSafe reports whether a literal block can hold s: printable lines
// without carriage returns, a first non-empty line that does not start with white
// space (it would be taken for the block's indentation), no line of
// spaces only. Final newlines are kept by the chomping indicator.
func literalSafe(s string) bool {
	body := strings.TrimRight(s, "\n")
	if lead := strings.TrimLeft(body, "\n"); lead == "" || lead[0] == ' ' || lead[0] == '\t' {
		return false
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" && strings.TrimSpace(line) == "" || strings.HasSuffix(line, "\r") {
			return false
		}
		for _, r := range line {
			if !printable(r) {
				return false
			}
		}
	}
	return true
}

// literal writes s as a literal block whose lines are indented by indent.
// The chomping indicator keeps the exact number of final newlines.
func literal(s string, indent int) (string, []string) {
	body := strings.TrimRight(s, "\n")
	header := "|-"
	switch len(s) - len(body) {
	case 0:
	case 1:
		header = "|"
	default:
		header = "|+"
	}
	pad := strings.Repeat(" ", indent)
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if line == "" {
			lines = append(lines, "")
		} else {
			lines = append(lines, pad+line)
		}
	}
	for i := 1; i < len(s)-len(body); i++ {
		lines = append(lines, "")
	}
	return header, lines
}

// doubleQuoted escapes what a double-quoted scalar cannot hold as is.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			writeRune(&b, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func writeRune(b *strings.Builder, r rune) {
	switch {
	case printable(r) && (r < 0x80 || unicode.IsPrint(r)):
		b.WriteRune(r)
	case r <= 0xFF:
		fmt.Fprintf(b, `\x%02X`, r)
	case r <= 0xFFFF:
		fmt.Fprintf(b, `\u%04X`, r)
	default:
		fmt.Fprintf(b, `\U%08X`, r)
	}
}

// renderKey writes a new mapping key so that both YAML versions read it
// as the string key (a key on, for instance, must be quoted).
func renderKey(k string) string {
	if k != "<<" && plainSafe(k) {
		return k
	}
	if first, more := renderScalar(k, 0); len(more) == 0 && !strings.HasPrefix(first, "|") {
		return first
	}
	return doubleQuoted(k)
}

// renderValue writes a Setting value for the value position of a key
// whose line is indented by indent.
func renderValue(v interface{}, indent int) (string, []string) {
	switch t := v.(type) {
	case int64:
		return strconv.FormatInt(t, 10), nil
	case bool:
		return strconv.FormatBool(t), nil
	case string:
		return renderScalar(t, indent)
	}
	return "", nil // checkEdit admits no other type
}
