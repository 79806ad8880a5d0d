package manifest

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// Messages of this package, in one place. Each error is a diag.List of
// one diagnostic placed at its file, line and, where known, document, so
// that a command reports the place in its JSON output too.

var yamlLine = regexp.MustCompile(`^line (\d+): `)

// errorLine is the line a YAML parser error names, or 0.
func errorLine(err error) int {
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "), "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// parseError places a YAML parser message at its line of the file. A
// document that does not parse and holds "{{" is almost surely a Helm
// template; saying so helps more than the parser's message. ("{{" inside a
// document that parses is just text: real CRD descriptions quote Go
// templates.)
func (d *Document) parseError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		line, msg = d.fileLine(n), msg[len(m[0]):]
	}
	if h := helmLine(d.data); h > 0 {
		if line > 0 {
			msg = fmt.Sprintf("line %d: %s", line, msg)
		}
		return diag.List{{File: d.file, Line: d.line + h - 1, Detail: fmt.Sprintf(
			"document %d is a Helm template, not a manifest (it has {{ on this line): render it with helm template and translate the output (YAML parser: %s)", d.index+1, msg)}}
	}
	if line == 0 {
		return diag.List{{File: d.file, Line: d.line, Doc: d.index + 1, Detail: msg}}
	}
	return diag.List{{File: d.file, Line: line, Detail: msg}}
}

// helmLine returns the line (from 1) of the first "{{" outside a comment
// line, or 0.
func helmLine(data []byte) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) > 0 && t[0] == '#' {
			continue
		}
		if bytes.Contains(line, []byte("{{")) {
			return i + 1
		}
	}
	return 0
}

// jsonError places an encoding/json message at its line of the file.
func jsonError(file string, data []byte, offset int64, err error) error {
	line := 1 + bytes.Count(data[:min(int(offset), len(data))], []byte("\n"))
	return diag.List{{File: file, Line: line, Detail: err.Error()}}
}

// editError says which edit of a document failed and where it points.
func (d *Document) editError(err *edit.Error) error {
	return diag.List{{File: d.file, Line: d.Line(err.Edit.Path), Doc: d.index + 1, Detail: err.Error()}}
}

// mismatchError reports the bug that no strategy produced the intended
// document; Apply refuses to write anything in that case.
func (d *Document) mismatchError(reason string) error {
	return diag.List{{File: d.file, Line: d.line, Doc: d.index + 1, Detail: fmt.Sprintf(
		"cannot apply edits without changing other content (%s); please report this with the input file", reason)}}
}

// duplicateKeyError: key is written twice in one mapping of the document,
// at the document's lines first and then dup.
func (d *Document) duplicateKeyError(key string, first, dup int) error {
	return diag.List{{File: d.file, Line: d.fileLine(dup), Doc: d.index + 1, Detail: fmt.Sprintf(
		"key %q is written twice in one mapping (first at line %d), and only the last would be read; remove one", key, d.fileLine(first))}}
}

// jsonFileError is a JSON error that names no offset, placed at the file.
func jsonFileError(file string, err error) error {
	return diag.List{{File: file, Detail: err.Error()}}
}
