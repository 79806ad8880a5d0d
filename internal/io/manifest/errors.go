package manifest

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
)

// Messages of this package, in one place.

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
		return fmt.Errorf("%s:%d: document %d is a Helm template, not a manifest (it has {{ on this line): render it with helm template and translate the output (YAML parser: %s)",
			d.file, d.line+h-1, d.index+1, msg)
	}
	if line == 0 {
		return fmt.Errorf("%s:%d: document %d: %s", d.file, d.line, d.index+1, msg)
	}
	return fmt.Errorf("%s:%d: %s", d.file, line, msg)
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
	return fmt.Errorf("%s:%d: %v", file, line, err)
}

// editError says which edit of a document failed and where it points.
func (d *Document) editError(err *edit.Error) error {
	return fmt.Errorf("%s:%d: document %d: %v", d.file, d.Line(err.Edit.Path), d.index+1, err)
}

// mismatchError reports the bug that no strategy produced the intended
// document; Apply refuses to write anything in that case.
func (d *Document) mismatchError(reason string) error {
	return fmt.Errorf("%s:%d: document %d: cannot apply edits without changing other content (%s); please report this with the input file",
		d.file, d.line, d.index+1, reason)
}
