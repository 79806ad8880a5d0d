package manifest

import (
	"bytes"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// text is a document cut into lines, numbered from 1 like yaml.v3 does:
// at every line break it counts (breakLen). Each line keeps its own
// terminator ("\n", "\r\n", another break, or "" at the very end).
type text struct {
	lines []string
	nl    string // terminator for new lines: "\r\n" if the document uses it, else "\n"
}

func newText(data []byte) *text {
	t := &text{nl: "\n"}
	for off := 0; off < len(data); {
		end := lineEnd(data, off)
		t.lines = append(t.lines, string(data[off:end]))
		off = end
	}
	if bytes.Contains(data, []byte("\r\n")) {
		t.nl = "\r\n"
	}
	return t
}

// content returns line n without its terminator.
func (t *text) content(n int) string {
	l := t.lines[n-1]
	return l[:len(l)-len(terminator(l))]
}

func (t *text) indent(n int) int {
	c := t.content(n)
	return len(c) - len(strings.TrimLeft(c, " "))
}

func (t *text) blank(n int) bool { return strings.TrimSpace(t.content(n)) == "" }

func (t *text) comment(n int) bool {
	return strings.HasPrefix(strings.TrimLeft(t.content(n), " \t"), "#")
}

// startsAt reports whether line n holds only spaces before column col (from
// 1) and a non-space there, i.e. whether a node at col begins the line.
func (t *text) startsAt(n, col int) bool {
	c := t.content(n)
	return col >= 1 && col <= len(c) && t.indent(n) == col-1
}

// tree indexes a node tree in document order, so that the node after a
// subtree, and so the line where the subtree's text must end, is at hand.
type tree struct {
	order []*yaml.Node
	last  map[*yaml.Node]int // node -> index in order of its subtree's last node
}

func newTree(root *yaml.Node) *tree {
	t := &tree{last: map[*yaml.Node]int{}}
	t.add(root)
	return t
}

func (t *tree) add(n *yaml.Node) {
	t.order = append(t.order, n)
	for _, c := range n.Content {
		t.add(c)
	}
	t.last[n] = len(t.order) - 1
}

// following returns the first node after n's subtree, or nil.
func (t *tree) following(n *yaml.Node) *yaml.Node {
	if i := t.last[n] + 1; i < len(t.order) {
		return t.order[i]
	}
	return nil
}

// lastLine returns the last line of n's text: the line before the next
// node, less trailing blank lines and trailing comments at or left of
// column indent+1 (those introduce what follows). Lines inside block
// scalars are never trimmed: they are indented further than indent. It
// returns 0 when the layout is not the plain block layout this expects.
func (tr *tree) lastLine(t *text, n *yaml.Node, indent int) int {
	end := docEnd(t)
	if next := tr.following(n); next != nil {
		end = next.Line - 1
	}
	inner := tr.order[tr.last[n]].Line
	if inner > end || end > len(t.lines) {
		return 0
	}
	for end > inner && (t.blank(end) || t.comment(end) && t.indent(end) <= indent) {
		end--
	}
	return end
}

// docEnd is the last line before a "..." marker, or the last line.
func docEnd(t *text) int {
	for n := 1; n <= len(t.lines); n++ {
		if isMarker([]byte(t.lines[n-1]), "...") {
			return n - 1
		}
	}
	return len(t.lines)
}

// seqOffset is how far a file indents block sequences under their key:
// controller-gen and kubectl write the dash at the key's column (0), other
// tools two columns further. The most frequent offset in the document wins;
// without sequences, 0.
func seqOffset(root *yaml.Node) int {
	counts := map[int]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && v.Line > k.Line {
					counts[v.Column-k.Column]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	best := 0
	for off, c := range counts {
		if c > counts[best] || c == counts[best] && off < best {
			best = off
		}
	}
	return best
}

// mappingIndent is the indentation step of nested block mappings, for
// documents that are re-encoded; 2 when the document shows none.
func mappingIndent(root *yaml.Node) int {
	step := 0
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i := 0; step == 0 && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && v.Line > k.Line && v.Column > k.Column {
				step = v.Column - k.Column
			}
		}
		for _, c := range n.Content {
			if step == 0 {
				walk(c)
			}
		}
	}
	walk(root)
	if step < 2 || step > 9 {
		return 2
	}
	return step
}

// fileLine returns the line of the file that holds line n (from 1) of the
// document as the YAML parser counts lines. Messages name lines as editors
// and grep count them, at "\n" alone; the parser also starts a line after
// a bare "\r", NEL, LS and PS.
func (d *Document) fileLine(n int) int {
	if d.lines == nil || n < 1 {
		return d.line + n - 1
	}
	return d.line + d.lines[min(n, len(d.lines))-1]
}

// lineMap returns, for each line of data as the YAML parser counts lines
// and one more for a line after the last break, how many "\n" come before
// it; nil when every line break of data is "\n" or "\r\n", so that both
// counts agree.
func lineMap(data []byte) []int {
	if !otherBreaks(data) {
		return nil
	}
	var m []int
	nl := 0
	for off := 0; off < len(data); {
		m = append(m, nl)
		end := lineEnd(data, off)
		if data[end-1] == '\n' {
			nl++
		}
		off = end
	}
	return append(m, nl)
}

// otherBreaks reports whether data has a line break other than "\n" and
// "\r\n".
func otherBreaks(data []byte) bool {
	for _, b := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(b)) {
			return true
		}
	}
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 == len(data) || data[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
