package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// JSON files are read with encoding/json, not with the YAML parser: YAML
// rejects valid JSON such as surrogate-pair escapes ("\ud83d\ude00") and
// tab indentation. The node tree built here has the shape yaml.v3 would
// give, so that paths, lines and edits work the same for both formats.

// maxJSONDepth bounds recursion on hostile input, like the apimachinery
// JSON decoder's limit.
const maxJSONDepth = 10000

// jsonDoc is a parsed JSON file: the node tree and the bytes around the
// value, kept verbatim when the value is re-encoded.
type jsonDoc struct {
	root       *yaml.Node // document node
	head, tail []byte
	raw        map[*yaml.Node][]byte // source text of scalars
}

type jsonReader struct {
	raw   map[*yaml.Node][]byte
	dec   *json.Decoder
	data  []byte
	lines []int // offsets where lines start
	depth int
}

func parseJSONDocument(name string, data []byte) (*Document, error) {
	d := &Document{file: name, line: 1, json: true, data: data}
	jd, err := readJSON(data)
	if err != nil {
		return nil, jsonParseError(name, data, err)
	}
	d.root = jd.root
	if d.value, err = decodeJSON(data); err != nil {
		return nil, jsonParseError(name, data, err)
	}
	if err := d.duplicateKey(); err != nil {
		return nil, err
	}
	return d, nil
}

func jsonParseError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return jsonError(name, data, se.Offset, err)
	}
	var oe *offsetError
	if errors.As(err, &oe) {
		return jsonError(name, data, oe.off, err)
	}
	return jsonFileError(name, err)
}

// readJSON parses exactly one JSON value, with white space around it.
func readJSON(data []byte) (*jsonDoc, error) {
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(data)), data: data, lines: lineStarts(data), raw: map[*yaml.Node][]byte{}}
	r.dec.UseNumber()
	start := r.next()
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	end := int(r.dec.InputOffset())
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, &offsetError{int64(r.next()), "more data after the JSON value; a JSON file holds one object"}
	}
	root := &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{v}}
	return &jsonDoc{root: root, head: data[:start], tail: data[end:], raw: r.raw}, nil
}

// next returns the offset where the next token starts.
func (r *jsonReader) next() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) && strings.IndexByte(" \t\r\n,:", r.data[off]) >= 0 {
		off++
	}
	return off
}

func (r *jsonReader) value() (*yaml.Node, error) {
	start := r.next()
	n := r.position(start)
	tok, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	if _, ok := tok.(json.Delim); !ok {
		r.raw[n] = r.data[start:r.dec.InputOffset()]
	}
	switch t := tok.(type) {
	case json.Delim:
		return r.collection(n, t)
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, numberTag(string(t)), string(t)
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(t)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

func (r *jsonReader) collection(n *yaml.Node, open json.Delim) (*yaml.Node, error) {
	if r.depth++; r.depth > maxJSONDepth {
		return nil, fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
	}
	defer func() { r.depth-- }()
	n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
	if open == '{' {
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	}
	for r.dec.More() {
		if n.Kind == yaml.MappingNode {
			k, err := r.value()
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, k)
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, v)
	}
	_, err := r.dec.Token() // the closing delimiter
	return n, err
}

// position makes a node at a byte offset. Columns count bytes, which is
// enough: JSON documents are never spliced, only re-encoded.
func (r *jsonReader) position(off int) *yaml.Node {
	i := sort.SearchInts(r.lines, off+1) - 1 // last line starting at or before off
	return &yaml.Node{Line: i + 1, Column: off - r.lines[i] + 1}
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func numberTag(s string) string {
	if strings.ContainsAny(s, ".eE") {
		return "!!float"
	}
	return "!!int"
}

type offsetError struct {
	off int64
	msg string
}

func (e *offsetError) Error() string { return e.msg }
