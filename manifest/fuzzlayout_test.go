package manifest

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzLayout checks that the layout code cuts a document into the lines
// the YAML parser counts: every node lies on a line of the text, a plain
// scalar starts at the line and column the parser gives it, and the
// helpers the splicer calls on node positions (content, startsAt,
// lastLine, Line) stay inside the text. Apply splices by these positions,
// so a parser that counts a line break the text does not (a bare CR, NEL,
// LS or PS) made it index past the end of the text. Crashers land in
// testdata/fuzz/FuzzLayout.
func FuzzLayout(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb:\n  c: [1, 2]\n  d:\n  - e\n  - f: g\n", "a: 1\r\n---\r\nb: |\r\n  x\r\n",
		"# c\n--- &a\nk: *a\n...\n# after\n", "k: \"q\n  r\"\nl: 'x'\n", "- a\n- - b\n  - c\n",
		"é: ü\nß:\n  ä: 1\n", "a: 1 # c\n\n# d\nb: 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("f.yaml", data)
		if err != nil {
			return
		}
		// The parser reads UTF-16 too, counting columns in characters;
		// the splicer leaves such documents to re-encoding.
		for _, d := range file.Docs {
			if d.root != nil && !d.json && !utf16BOM(d.data) {
				checkLayout(t, d)
			}
		}
	})
}

// checkLayout checks the positions of d's nodes against its text.
func checkLayout(t *testing.T, d *Document) {
	t.Helper()
	txt, tr := newText(d.data), newTree(d.root)
	runes := map[int][]rune{} // line -> its characters, as the parser counts columns
	for _, n := range tr.order {
		if n.Kind == yaml.ScalarNode && n.Value == "" && n.Line == len(txt.lines)+1 {
			continue // an empty value at the end of a document without a final line break
		}
		if n.Line < 1 || n.Line > len(txt.lines) {
			t.Fatalf("node %q is on line %d of a document of %d lines: %q", n.Value, n.Line, len(txt.lines), d.data)
		}
		line, ok := runes[n.Line]
		if !ok {
			line = []rune(strings.TrimPrefix(txt.content(n.Line), "\ufeff"))
			runes[n.Line] = line
		}
		if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Anchor == "" && n.Value != "" {
			if n.Column >= 1 && n.Column <= len(line) && line[n.Column-1] == '!' {
				continue // a tag, "!" for one, comes first
			}
			if n.Column < 1 || n.Column > len(line) || line[n.Column-1] != []rune(n.Value)[0] {
				t.Fatalf("plain scalar %q at line %d, column %d; the line is %q in %q", n.Value, n.Line, n.Column, string(line), d.data)
			}
		}
		txt.startsAt(n.Line, n.Column)
		if last := tr.lastLine(txt, n, n.Column-1); last > len(txt.lines) {
			t.Fatalf("node %q ends on line %d of a document of %d lines: %q", n.Value, last, len(txt.lines), d.data)
		}
		if got := d.Line(nil); got < d.StartLine() {
			t.Fatalf("Line() = %d before the document's start line %d", got, d.StartLine())
		}
	}
}
