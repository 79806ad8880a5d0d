package manifest

import (
	"errors"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// Splicing edits a document's text line by line so that every line the
// edits do not concern stays as it was: comments, quoting, key order, long
// lines. It handles block mappings laid out one key per line, which is what
// controller-gen, kubebuilder and kubectl write; anything else makes it give
// up (errNoSplice) and Apply re-encodes the document instead.

var errNoSplice = errors.New("layout cannot be spliced")

type splicer struct {
	t      *text
	tr     *tree
	offset int                    // seqOffset of the document
	step   int                    // mappingIndent of the document
	cur    map[string]interface{} // the decoded document, edited so far

	drop    map[int]bool              // lines to delete
	replace map[int]*insertion        // line -> block written instead
	after   map[int][]*insertion      // line -> blocks written after it
	created map[*yaml.Node]*insertion // mapping -> its new validations key
	made    map[string]*insertion     // path -> mapping created by Create
	gone    map[*yaml.Node]bool       // list items deleted by RemoveRules
	// keyGone is the line where a mapping's validations key was, once an
	// edit has deleted the key (Remove, or RemoveRules emptying the list):
	// rules a later edit adds make the key anew there, not in the old list.
	keyGone map[*yaml.Node]int
}

// insertion is a block of new lines; blocks after the same line are
// written innermost first, so that each lands inside the node it belongs
// to: the most indented first, and at one indentation list items before
// keys, since a list whose dashes are at its key's column (controller-gen
// writes them so) is inside the mapping that holds the key.
type insertion struct {
	indent int
	items  bool // list items, appended to a list
	lines  []string
}

func (b *insertion) inside(c *insertion) bool {
	return b.indent > c.indent || b.indent == c.indent && b.items && !c.items
}

func splice(data []byte, root *yaml.Node, value map[string]interface{}, edits []edit.Edit) ([]byte, error) {
	if hasAnchors(root) {
		return nil, errNoSplice // an edit could show through an alias
	}
	if utf16BOM(data) {
		return nil, errNoSplice // not UTF-16 text (Parse turns that into UTF-8): the parser's columns would not be these bytes
	}
	s := &splicer{
		t: newText(data), tr: newTree(root), offset: seqOffset(root), step: mappingIndent(root),
		cur:  edit.Copy(value).(map[string]interface{}),
		drop: map[int]bool{}, replace: map[int]*insertion{},
		after: map[int][]*insertion{}, created: map[*yaml.Node]*insertion{},
		made: map[string]*insertion{}, gone: map[*yaml.Node]bool{},
		keyGone: map[*yaml.Node]int{},
	}
	for _, e := range edits {
		if err := s.edit(root, e); err != nil {
			return nil, err
		}
		if err := e.ApplyTo(s.cur); err != nil {
			return nil, err
		}
	}
	return s.render(), nil
}

func (s *splicer) edit(root *yaml.Node, e edit.Edit) error {
	if e.Create {
		if done, err := s.create(root, e); done || err != nil {
			return err
		}
	}
	m, err := findMapping(root, e.Path)
	if err != nil || m.Style&yaml.FlowStyle != 0 || len(m.Content) == 0 {
		return errNoSplice
	}
	indent := m.Content[0].Column - 1
	removedAt, err := s.remove(m, indent, e.Remove)
	if err != nil {
		return err
	}
	listGone, err := s.removeRules(m, indent, e)
	if err != nil {
		return err
	}
	if i := keyIndex(m, edit.ValidationsKey); i >= 0 && (listGone || contains(e.Remove, edit.ValidationsKey)) {
		s.keyGone[m] = m.Content[i].Line
	}
	if err := s.set(m, indent, e.Set); err != nil || len(e.AddRules) == 0 {
		return err
	}
	if ins := s.created[m]; ins != nil {
		ins.lines = append(ins.lines, s.items(ins.indent+s.offset, -1, e.AddRules)...)
		return nil
	}
	if at, gone := s.keyGone[m]; gone {
		if removedAt == 0 || at < removedAt {
			removedAt = at
		}
		return s.createKey(m, indent, removedAt, e.AddRules)
	}
	if i := keyIndex(m, edit.ValidationsKey); i >= 0 {
		return s.appendItems(m.Content[i+1], e.AddRules)
	}
	return s.createKey(m, indent, removedAt, e.AddRules)
}

// remove deletes the lines of removed pairs: from the key, which must begin
// its line, to the last line of the value. Comments above the key and at or
// left of its column after the value stay. It returns the first removed
// line, or 0.
func (s *splicer) remove(m *yaml.Node, indent int, keys []string) (int, error) {
	first := 0
	for _, k := range keys {
		i := keyIndex(m, k)
		if i < 0 {
			return 0, errNoSplice
		}
		from, to := s.pairLines(m.Content[i], m.Content[i+1], indent)
		if from == 0 || to < from {
			return 0, errNoSplice
		}
		for n := from; n <= to; n++ {
			s.drop[n] = true
		}
		if first == 0 || from < first {
			first = from
		}
	}
	return first, nil
}

func (s *splicer) pairLines(key, val *yaml.Node, indent int) (int, int) {
	if key.Kind != yaml.ScalarNode || val.Line < key.Line || !s.t.startsAt(key.Line, indent+1) {
		return 0, 0
	}
	// A block collection that yaml.v3 places on its key's line has a tag
	// or the like there: a layout left to re-encoding.
	if val.Kind != yaml.ScalarNode && val.Style&yaml.FlowStyle == 0 && val.Line == key.Line {
		return 0, 0
	}
	return key.Line, s.tr.lastLine(s.t, val, indent)
}

// createKey writes a new validations key where the first removed key was,
// or after the mapping's last line.
func (s *splicer) createKey(m *yaml.Node, indent, removedAt int, rules []edit.Rule) error {
	ins := &insertion{indent: indent}
	ins.lines = append([]string{pad(indent) + edit.ValidationsKey + ":"}, s.items(indent+s.offset, -1, rules)...)
	s.created[m] = ins
	if removedAt > 0 {
		s.replace[removedAt] = ins
		return nil
	}
	last := s.tr.lastLine(s.t, m, indent)
	if last == 0 {
		return errNoSplice
	}
	s.after[last] = append(s.after[last], ins)
	return nil
}

// appendItems adds rules after the last item of an existing block list,
// with the dash where the list has its dashes and the keys where its first
// item has them.
func (s *splicer) appendItems(seq *yaml.Node, rules []edit.Rule) error {
	if seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 || len(seq.Content) == 0 {
		return errNoSplice
	}
	dash := seq.Column - 1
	if !s.t.startsAt(seq.Line, seq.Column) || s.t.content(seq.Line)[dash] != '-' {
		return errNoSplice
	}
	keyCol := -1
	if first := seq.Content[0]; first.Kind == yaml.MappingNode && first.Line == seq.Line && first.Style&yaml.FlowStyle == 0 {
		keyCol = first.Column - 1
		line := s.t.content(seq.Line)
		if keyCol <= dash || keyCol > len(line) || strings.Trim(line[dash+1:keyCol], " ") != "" {
			return errNoSplice
		}
	}
	last := s.tr.lastLine(s.t, seq, dash)
	if last == 0 {
		return errNoSplice
	}
	s.after[last] = append(s.after[last], &insertion{indent: dash, items: true, lines: s.items(dash, keyCol, rules)})
	return nil
}

// items writes rules as block list items with the dash at column dash+1
// and the keys at keyCol+1 (dash+2 when keyCol < 0).
func (s *splicer) items(dash, keyCol int, rules []edit.Rule) []string {
	if keyCol < 0 {
		keyCol = dash + 2
	}
	var out []string
	for _, r := range rules {
		for i, f := range r.Fields() {
			lead := pad(keyCol)
			if i == 0 {
				lead = pad(dash) + "-" + pad(keyCol-dash-1)
			}
			first, more := renderScalar(f[1], keyCol)
			out = append(out, lead+f[0]+": "+first)
			out = append(out, more...)
		}
	}
	return out
}

// render writes the document with the planned changes. New lines take the
// document's line terminator; a document without a final newline keeps
// lacking one.
func (s *splicer) render() []byte {
	var out []string
	for n := 1; n <= len(s.t.lines); n++ {
		if ins := s.replace[n]; ins != nil {
			out = append(out, ins.lines...)
		} else if !s.drop[n] {
			out = append(out, s.t.lines[n-1])
		}
		blocks := s.after[n]
		sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].inside(blocks[j]) })
		for _, b := range blocks {
			out = append(out, b.lines...)
		}
	}
	return s.t.join(out)
}

// join terminates every line but the last one that lacks a terminator,
// and gives the last line a terminator exactly when the original had one.
func (t *text) join(lines []string) []byte {
	var b strings.Builder
	final := len(t.lines) > 0 && terminator(t.lines[len(t.lines)-1]) != ""
	for i, l := range lines {
		b.WriteString(l)
		ends := terminator(l) != ""
		switch {
		case i < len(lines)-1 && !ends, i == len(lines)-1 && final && !ends:
			b.WriteString(t.nl)
		}
	}
	out := b.String()
	if !final {
		out = strings.TrimSuffix(out, terminator(out))
	}
	return []byte(out)
}

func hasAnchors(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAnchors(c) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func pad(n int) string { return strings.Repeat(" ", n) }
