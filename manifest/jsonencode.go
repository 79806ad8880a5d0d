package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// encodeJSON writes an edited JSON document: keys in their original order,
// indented with the unit the file uses (compact when the file is one line),
// and the white space around the value kept as it was.
func encodeJSON(jd *jsonDoc, original []byte) ([]byte, error) {
	var compact bytes.Buffer
	w := jsonWriter{raw: jd.raw}
	if err := w.value(&compact, jd.root.Content[0]); err != nil {
		return nil, err
	}
	body := compact.Bytes()
	prefix := prefixOf(jd.head)
	if unit := strings.TrimPrefix(jsonIndent(original), prefix); unit != "" {
		var indented bytes.Buffer
		if err := json.Indent(&indented, body, prefix, unit); err != nil {
			return nil, err
		}
		body = indented.Bytes()
		if bytes.Contains(original, []byte("\r\n")) {
			body = bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n"))
		}
	}
	out := append(append(append([]byte(nil), jd.head...), body...), jd.tail...)
	return out, nil
}

// jsonWriter writes nodes as compact JSON; scalars read from the file keep
// their exact spelling (escapes, 1.50, 1e3).
type jsonWriter struct {
	raw map[*yaml.Node][]byte
}

func (w jsonWriter) value(b *bytes.Buffer, n *yaml.Node) error {
	if raw, ok := w.raw[n]; ok {
		b.Write(raw)
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		return w.collection(b, n)
	case yaml.ScalarNode:
		if n.ShortTag() != "!!str" {
			b.WriteString(n.Value)
			return nil
		}
		return writeJSONString(b, n.Value)
	}
	return fmt.Errorf("cannot write a YAML node of kind %d as JSON", n.Kind)
}

func (w jsonWriter) collection(b *bytes.Buffer, n *yaml.Node) error {
	open, close, step := byte('['), byte(']'), 1
	if n.Kind == yaml.MappingNode {
		open, close, step = '{', '}', 2
	}
	b.WriteByte(open)
	for i := 0; i < len(n.Content); i += step {
		if i > 0 {
			b.WriteByte(',')
		}
		if step == 2 {
			if err := w.value(b, n.Content[i]); err != nil {
				return err
			}
			b.WriteByte(':')
		}
		if err := w.value(b, n.Content[i+step-1]); err != nil {
			return err
		}
	}
	b.WriteByte(close)
	return nil
}

// writeJSONString leaves <, > and & alone: manifests are not HTML.
func writeJSONString(b *bytes.Buffer, s string) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode adds a newline
	return nil
}

// jsonIndent returns the indentation unit of a JSON file: the leading white
// space of the first indented line, or "" for a file on one line.
func jsonIndent(data []byte) string {
	lines := bytes.Split(data, []byte("\n"))
	for _, l := range lines[1:] {
		t := bytes.TrimLeft(l, " \t")
		if len(t) > 0 && len(t) < len(l) {
			return string(l[:len(l)-len(t)])
		}
	}
	return ""
}

// prefixOf returns the indentation of the line the value starts on, so that
// a value indented as a whole stays indented.
func prefixOf(head []byte) string {
	return string(head[bytes.LastIndexByte(head, '\n')+1:])
}
