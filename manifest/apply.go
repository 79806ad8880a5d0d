package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// Apply edits the document. It first splices new lines into the text, all
// edits at once, then, if that fails, one edit after another; if the
// layout does not allow that (flow style, anchors, a removed key that
// shares its line) or the result does not decode to edit.Apply of the
// current value, it re-encodes the document from its edited node tree
// (JSON documents always take this way). If that does not give the
// intended value either, Apply returns an error and changes nothing. A
// re-encoded document is Reformatted unless the encoder gives back its
// text unedited.
func (d *Document) Apply(edits []edit.Edit) error {
	if len(edits) == 0 {
		return nil
	}
	want, err := edit.Apply(d.value, edits)
	var bad *edit.Error
	if errors.As(err, &bad) {
		return d.editError(bad)
	} else if err != nil {
		return err
	}
	if !d.json {
		if data, err := splice(d.data, d.root, d.value, edits); err == nil && d.adopt(data, want) {
			return nil
		}
		if data, ok := d.spliceEach(edits); ok && d.adopt(data, want) {
			return nil
		}
	}
	data, err := d.reencode(edits)
	if err != nil {
		return d.mismatchError(err.Error())
	}
	alike := d.encodesAlike()
	if !d.adopt(data, want) {
		return d.mismatchError("the re-encoded document decodes to a different value")
	}
	d.reencoded, d.reformatted = true, d.reformatted || !alike
	return nil
}

// encodesAlike reports whether re-encoding the document without edits
// gives back its text byte for byte. Then the encoder changes only what
// the edits change: JSON indented by one unit throughout, as kubectl and
// json.MarshalIndent write it, or YAML laid out as yaml.v3 writes it.
// Otherwise (folded lines joined, flow collections respaced, comments
// moved) a re-encoded document reads differently outside the edits.
func (d *Document) encodesAlike() bool {
	same, err := d.reencode(nil)
	return err == nil && bytes.Equal(same, d.data)
}

// spliceEachBudget bounds the text spliceEach reads anew, edits times
// the document's size: about a second of parsing.
const spliceEachBudget = 16 << 20

// spliceEach splices the edits one at a time, reading the text anew
// after each: slower than splicing them together, but a later edit then
// finds the lines an earlier one wrote or deleted on the same node (a
// rule it added and now removes, a key set twice).
func (d *Document) spliceEach(edits []edit.Edit) ([]byte, bool) {
	if len(edits) < 2 || len(edits)*len(d.data) > spliceEachBudget {
		return nil, false
	}
	data, root, value := d.data, d.root, d.value
	for _, e := range edits {
		out, err := splice(data, root, value, []edit.Edit{e})
		if err != nil {
			return nil, false
		}
		if root, value, err = readYAML(out); err != nil || root == nil {
			return nil, false
		}
		data = out
	}
	return data, true
}

// adopt makes data the document's text if it decodes to want.
func (d *Document) adopt(data []byte, want map[string]interface{}) bool {
	root, value, err := d.read(data)
	if err != nil || !reflect.DeepEqual(value, want) {
		return false
	}
	d.data, d.root, d.value, d.changed = data, root, value, true
	if !d.json {
		d.lines = lineMap(data)
	}
	return true
}

func (d *Document) read(data []byte) (*yaml.Node, map[string]interface{}, error) {
	if !d.json {
		return readYAML(data)
	}
	jd, err := readJSON(data)
	if err != nil {
		return nil, nil, err
	}
	value, err := decodeJSON(data)
	return jd.root, value, err
}

// reencode writes the document anew from a freshly parsed, edited node
// tree.
func (d *Document) reencode(edits []edit.Edit) ([]byte, error) {
	if d.json {
		jd, err := readJSON(d.data)
		if err != nil {
			return nil, err
		}
		if err := editTree(jd.root, d.value, edits, true); err != nil {
			return nil, err
		}
		return encodeJSON(jd, d.data)
	}
	// What follows a "..." marker is kept verbatim, so it must not also
	// reach the encoder as a comment of the document.
	t := newText(d.data)
	body := []byte(strings.Join(t.lines[:docEnd(t)], ""))
	root, err := parseYAMLNode(body)
	if err != nil || root == nil {
		return nil, fmt.Errorf("cannot re-read the document: %v", err)
	}
	if err := editTree(root, d.value, edits, false); err != nil {
		return nil, err
	}
	return encodeYAML(t, root)
}

// encodeYAML writes a document with the indentation its original text t
// shows, keeping the original's "---" line (without anything after it) and
// its "..." end marker and whatever follows that.
func encodeYAML(t *text, root *yaml.Node) ([]byte, error) {
	var body bytes.Buffer
	enc := yaml.NewEncoder(&body)
	enc.SetIndent(mappingIndent(root))
	if seqOffset(root) == 0 {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	var lines []string
	if start := docStart(t); start > 0 {
		lines = append(lines, t.lines[:start-1]...)
		lines = append(lines, "---")
	}
	lines = append(lines, newText(body.Bytes()).lines...)
	if end := docEnd(t); end < len(t.lines) {
		lines = append(lines, t.lines[end:]...)
	}
	return t.join(convertNL(lines, t.nl)), nil
}

// docStart returns the line of the "---" marker that starts the document,
// or 0.
func docStart(t *text) int {
	for n := 1; n <= len(t.lines); n++ {
		if isMarker([]byte(t.lines[n-1]), "---") {
			return n
		}
		if !t.blank(n) && !t.comment(n) && !bytes.HasPrefix([]byte(t.lines[n-1]), []byte("%")) {
			return 0
		}
	}
	return 0
}

// convertNL gives encoder output the document's line terminator.
func convertNL(lines []string, nl string) []string {
	if nl == "\n" {
		return lines
	}
	for i, l := range lines {
		if bytes.HasSuffix([]byte(l), []byte("\n")) && !bytes.HasSuffix([]byte(l), []byte("\r\n")) {
			lines[i] = l[:len(l)-1] + nl
		}
	}
	return lines
}
