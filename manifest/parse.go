package manifest

import (
	"bytes"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// File is a parsed manifest file: its documents in stream order.
type File struct {
	Name string
	Docs []*Document
	// utf16 holds the bytes of a file read as UTF-16 (fromUTF16), whose
	// documents hold its text in UTF-8.
	utf16 []byte
}

// Document is one document of a File.
type Document struct {
	file  string
	index int
	line  int   // line of the file where the document starts
	lines []int // "\n" before each line as the parser counts them; nil when the counts agree (fileLine)
	json  bool  // the whole file is one JSON value
	data  []byte
	root  *yaml.Node // document node; nil when the document is empty
	value map[string]interface{}

	// reencoded: Apply wrote the document anew; reformatted: and that
	// changed its text outside the edits (Reformatted).
	changed, reencoded, reformatted bool
}

// Parse splits a manifest file into documents. A file named *.json, or whose
// first non-space byte is "{" and which is valid JSON, is one JSON document;
// anything else is a YAML stream. Errors name the file and line:
// "crd.yaml:12: did not find expected key".
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name}
	if text, ok := fromUTF16(data); ok {
		f.utf16, data = data, text
	}
	if isJSONFile(name, data) {
		d, err := parseJSONDocument(name, data)
		if err == nil || strings.HasSuffix(name, ".json") {
			if err != nil {
				return nil, err
			}
			f.Docs = []*Document{d}
			return f, nil
		}
	}
	for i, c := range splitStream(data) {
		d := &Document{file: name, index: i, line: c.line, data: c.data, lines: lineMap(c.data)}
		if err := d.parseYAML(); err != nil {
			return nil, err
		}
		f.Docs = append(f.Docs, d)
	}
	return f, nil
}

func isJSONFile(name string, data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return strings.HasSuffix(name, ".json") || len(t) > 0 && t[0] == '{'
}

// parseYAML fills in the node tree and the decoded value from d.data.
func (d *Document) parseYAML() error {
	root, value, err := readYAML(d.data)
	if err != nil {
		// yaml.v3 places some errors on the 0-based line where the
		// enclosing collection starts; the YAML 1.1 parser of
		// sigs.k8s.io/yaml names the line of the problem itself there.
		// The later of the two is the nearer to the mistake.
		if _, err2 := decodeYAML(d.data); err2 != nil && errorLine(err2) > errorLine(err) {
			err = err2
		}
		return d.parseError(err)
	}
	d.root, d.value = root, value
	return d.duplicateKey()
}

// readYAML parses one document once into its node tree, and reads its
// value from the tree where YAML 1.1 reads it alike (nodeValue), else
// parses it again as kubectl does (decodeYAML).
func readYAML(data []byte) (*yaml.Node, map[string]interface{}, error) {
	root, err := parseYAMLNode(data)
	if err != nil {
		return nil, nil, err
	}
	if value, ok := nodeValue(root); ok {
		return root, value, nil
	}
	value, err := decodeYAML(data)
	if err != nil {
		return nil, nil, err
	}
	return root, value, nil
}

// Bytes returns the whole stream, edited documents included. A UTF-16
// file comes back as it was read unless a document was edited, and then
// in UTF-8.
func (f *File) Bytes() []byte {
	if f.utf16 != nil && !f.Changed() {
		return f.utf16
	}
	var b bytes.Buffer
	for _, d := range f.Docs {
		b.Write(d.data)
	}
	return b.Bytes()
}

// Changed reports whether any document was edited.
func (f *File) Changed() bool {
	for _, d := range f.Docs {
		if d.changed {
			return true
		}
	}
	return false
}

// Index is the position of the document in its file, from 0. Empty and
// comment-only documents count.
func (d *Document) Index() int { return d.index }

// StartLine is the line of the file on which the document starts (its
// "---" line, if it has one).
func (d *Document) StartLine() int { return d.line }

// Value returns a copy of the decoded document, or nil when the document is
// empty or its root is not a mapping.
func (d *Document) Value() map[string]interface{} {
	if d.value == nil {
		return nil
	}
	return edit.Copy(d.value).(map[string]interface{})
}

// Kind returns the document's apiVersion and kind, each "" where it is
// absent or not a string, without copying the document; mapping is false
// where Value is nil.
func (d *Document) Kind() (apiVersion, kind string, mapping bool) {
	if d.value == nil {
		return "", "", false
	}
	apiVersion, _ = d.value["apiVersion"].(string)
	kind, _ = d.value["kind"].(string)
	return apiVersion, kind, true
}

// NotMapping says what the document holds when it has content but its
// root is not a mapping, the shape of every Kubernetes manifest: "a
// list", "a string", "a number", "a boolean", "null"... It returns ""
// for a mapping and for an empty document (nothing, or only comments).
// Value is nil for both kinds of document; only an empty one is not a
// mistake.
func (d *Document) NotMapping() string {
	n := deref(d.root)
	if n == nil || n.Kind == yaml.MappingNode || n.Kind == yaml.DocumentNode {
		return ""
	}
	if n.Kind == yaml.SequenceNode {
		return "a list"
	}
	if n.Kind != yaml.ScalarNode {
		return "not a mapping"
	}
	switch n.ShortTag() {
	case "!!null":
		if n.Value == "" && n.Style == 0 {
			return "" // "---" with nothing after it
		}
		return "null"
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!timestamp":
		return "a timestamp"
	}
	return "a scalar"
}

// Bytes returns the document's current text.
func (d *Document) Bytes() []byte { return d.data }

// Changed reports whether Apply changed the document.
func (d *Document) Changed() bool { return d.changed }

// Reformatted reports whether Apply had to re-encode the whole document
// instead of splicing lines into it, and the encoder does not give back
// its unedited text: its layout and comments may have changed outside the
// edits. A document re-encoded without such change (a JSON file indented
// as kubectl writes JSON) is not Reformatted.
func (d *Document) Reformatted() bool { return d.reformatted }
