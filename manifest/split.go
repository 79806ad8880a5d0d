package manifest

import (
	"bytes"
	"strings"
)

// chunk is the slice of a stream that holds one document, and the line of
// the file it starts on, from 1.
type chunk struct {
	data []byte
	line int
}

// splitStream cuts a YAML stream before every document start marker ("---"
// at the start of a line). YAML forbids such a line inside any scalar (the
// spec's c-forbidden production), so a line scan finds exactly the
// boundaries the parser sees. Directive lines ("%YAML 1.1") that follow a
// document end marker ("...") or open the stream belong to the next
// document, as in the spec.
// The chunks concatenate back to data.
func splitStream(data []byte) []chunk {
	var out []chunk
	start, startLine := 0, 1
	directives, directivesLine := -1, 0 // offset and line of pending directives
	afterEnd := true                    // at the start, or the last content line was "..."
	line := 1                           // of the file, counted by "\n" as editors and grep do (fileLines)
	for off := 0; off < len(data); {
		end := lineEnd(data, off)
		text := data[off:end]
		switch {
		case isMarker(text, "---"):
			cut, cutLine := off, line
			if directives >= 0 {
				cut, cutLine = directives, directivesLine
			}
			if cut > start {
				out = append(out, chunk{data[start:cut], startLine})
			}
			start, startLine = cut, cutLine
			directives, afterEnd = -1, false
		case isMarker(text, "..."):
			directives, afterEnd = -1, true
		case len(text) > 0 && text[0] == '%' && (afterEnd || directives >= 0):
			if directives < 0 {
				directives, directivesLine = off, line
			}
		case isBlankOrComment(text):
		default:
			directives, afterEnd = -1, false
		}
		if data[end-1] == '\n' {
			line++
		}
		off = end
	}
	if start < len(data) {
		out = append(out, chunk{data[start:], startLine})
	}
	return mergePreamble(out)
}

// mergePreamble joins comments and blank lines before the first "---" to
// the document that follows: YAML parsers see no document there, so
// neither should document numbers in messages.
func mergePreamble(chunks []chunk) []chunk {
	if len(chunks) < 2 {
		return chunks
	}
	data := chunks[0].data
	for off := 0; off < len(data); {
		end := lineEnd(data, off)
		if !isBlankOrComment(data[off:end]) {
			return chunks
		}
		off = end
	}
	chunks[1] = chunk{append(append([]byte(nil), data...), chunks[1].data...), chunks[0].line}
	return chunks[1:]
}

// lineEnd returns the offset just past the line break that ends the line
// at off, or len(data) for the last line.
func lineEnd(data []byte, off int) int {
	for i := off; i < len(data); i++ {
		if n := breakLen(data[i:]); n > 0 {
			return i + n
		}
	}
	return len(data)
}

// breakLen returns the length of the line break that starts s, or 0.
// Line breaks are those the YAML parser counts lines by (YAML 1.1, as in
// libyaml): "\r\n", "\n", a bare "\r", NEL (U+0085), LS (U+2028) and
// PS (U+2029). The layout code must cut lines exactly where the parser
// does, since it finds nodes by the parser's line numbers.
func breakLen[T string | []byte](s T) int {
	switch {
	case len(s) == 0:
		return 0
	case s[0] == '\n':
		return 1
	case s[0] == '\r':
		if len(s) > 1 && s[1] == '\n' {
			return 2
		}
		return 1
	case s[0] == 0xc2 && len(s) > 1 && s[1] == 0x85:
		return 2
	case s[0] == 0xe2 && len(s) > 2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9):
		return 3
	}
	return 0
}

// terminator returns the line break that ends line, or "".
func terminator(line string) string {
	for _, nl := range []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"} {
		if strings.HasSuffix(line, nl) {
			return nl
		}
	}
	return ""
}

// Empty reports whether a file holds no document, so that Parse would give
// it only documents without content: a YAML stream of blank lines,
// comments, "---" and "..." markers (with nothing but a comment after
// them) and directives, or a JSON file of white space. It reads the lines
// only, so that inputs can be checked before they are parsed.
func Empty(name string, data []byte) bool {
	if isJSONFile(name, data) {
		return len(bytes.TrimSpace(data)) == 0
	}
	for off := 0; off < len(data); {
		end := lineEnd(data, off)
		line := data[off:end]
		off = end
		if isMarker(line, "---") || isMarker(line, "...") {
			line = line[3:]
		} else if len(line) > 0 && line[0] == '%' {
			continue
		}
		if !isBlankOrComment(line) {
			return false
		}
	}
	return true
}

// isMarker reports whether a line is the document marker m ("---" or "..."),
// which must be followed by white space, a line break or the end of the
// line.
func isMarker(line []byte, m string) bool {
	if !bytes.HasPrefix(line, []byte(m)) {
		return false
	}
	rest := line[len(m):]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || breakLen(rest) > 0
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	return len(bytes.TrimSpace(t)) == 0 || t[0] == '#'
}
