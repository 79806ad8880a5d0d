package manifest

import "bytes"

// chunk is the slice of a stream that holds one document, and the 1-based
// line of the stream it starts on.
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
	line := 1
	for off := 0; off < len(data); line++ {
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
	for _, line := range bytes.SplitAfter(chunks[0].data, []byte("\n")) {
		if !isBlankOrComment(line) {
			return chunks
		}
	}
	data := append(append([]byte(nil), chunks[0].data...), chunks[1].data...)
	chunks[1] = chunk{data, chunks[0].line}
	return chunks[1:]
}

// lineEnd returns the offset just past the newline of the line at off.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
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
// which must be followed by white space or the end of the line.
func isMarker(line []byte, m string) bool {
	if !bytes.HasPrefix(line, []byte(m)) {
		return false
	}
	return len(line) == len(m) || bytes.IndexByte([]byte(" \t\r\n"), line[len(m)]) >= 0
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	return len(bytes.TrimSpace(t)) == 0 || t[0] == '#'
}
