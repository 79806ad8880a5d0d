package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestRoundTripFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "roundtrip", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no round-trip files: %v", err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, p, data)
	}
}

func TestRoundTripInline(t *testing.T) {
	for name, in := range map[string]string{
		"empty":                "",
		"newline":              "\n",
		"separator only":       "---",
		"two separators":       "---\n---\n",
		"leading separator":    "---\na: 1\n",
		"no final newline":     "a: 1\n---\nb: 2",
		"crlf":                 "a: 1\r\n---\r\nb:\r\n  - c\r\n",
		"crlf no final":        "a: 1\r\n# c\r\n---\r\nb: 2",
		"byte order mark":      "\ufeffa: 1\n",
		"trailing spaces":      "a: 1   \n---   \n\n  \nb: 2 \t\n",
		"end marker":           "a: 1\n...\n",
		"end then directive":   "a: 1\n...\n%YAML 1.1\n---\nb: 2\n",
		"top-level scalar":     "--- |\n  text\n--- plain\n",
		"comments only":        "# one\n# two\n",
		"json with spaces":     "  {\"a\": [1, 2.50, \"\\u00e9\"]}  \n",
		"flow mapping as yaml": "{a: 1}\n---\nb: 2\n",
		"separator comment":    "--- # c\na: 1\n---\t\nb: 2\n",
	} {
		t.Run(name, func(t *testing.T) { checkRoundTrip(t, name, []byte(in)) })
	}
}

func checkRoundTrip(t *testing.T, name string, data []byte) {
	t.Helper()
	f, err := Parse(name, data)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	if got := f.Bytes(); string(got) != string(data) {
		t.Errorf("Parse(%s).Bytes() = %q, want %q", name, got, data)
	}
	if f.Changed() {
		t.Errorf("Parse(%s).Changed() = true without edits", name)
	}
}

func TestParseDocuments(t *testing.T) {
	in := "# preamble\n---\napiVersion: v1\noff: yes\ny: n\n'y': \"n\"\n---\n\n---\n- a\n---\njust text\n"
	f, err := Parse("s.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line  int
		value map[string]interface{}
	}{
		{1, map[string]interface{}{"apiVersion": "v1", "false": true, "true": false, "y": "n"}}, // off: yes is false: true, y: n is true: false
		{7, nil},
		{9, nil},
		{11, nil},
	}
	if len(f.Docs) != len(want) {
		t.Fatalf("Parse gave %d documents, want %d", len(f.Docs), len(want))
	}
	for i, w := range want {
		d := f.Docs[i]
		if d.Index() != i || d.StartLine() != w.line || !reflect.DeepEqual(d.Value(), w.value) {
			t.Errorf("document %d: index %d, line %d, value %v; want line %d, value %v",
				i, d.Index(), d.StartLine(), d.Value(), w.line, w.value)
		}
	}
}

// Numbers decode as kubectl's unstructured objects hold them: whole numbers
// as int64, even when written 1e3.
func TestParseNumbers(t *testing.T) {
	f, err := Parse("n.yaml", []byte("i: 1\nf: 1.5\ne: 1e3\nbig: 12345678901234567890\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]interface{}{"i": int64(1), "f": 1.5, "e": int64(1000), "big": 12345678901234567890.0}
	if got := f.Docs[0].Value(); !reflect.DeepEqual(got, want) {
		t.Errorf("Value() = %#v, want %#v", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"bad.yaml", "a: 1\n---\nb: [1,\n", "bad.yaml:3: did not find expected node content"},
		{"bad.yaml", "a: 1\nb: c: d\n", "bad.yaml:2: mapping values are not allowed in this context"},
		{"flow.yaml", "kind: X\ndata:\n  a: [1,\n  b: 2\n", "flow.yaml:4: did not find expected ',' or ']'"},
		{"seq.yaml", "a:\n  - b\n  c: d\n", "seq.yaml:2: did not find expected '-' indicator"},
		{"tabs.yaml", "a:\n\tb: 1\n", "tabs.yaml:2: "},
		{"helm.yaml", "a: 1\n---\n{{- if .Values.crds }}\nkind: X\n", "helm.yaml:3: document 2 is a Helm template"},
		{"helm.yaml", "metadata:\n  name: {{ .Release.Name }}\n", "helm.yaml:2: document 1 is a Helm template"},
		{"end.yaml", "a: 1\n...\nb: 2\n", "end.yaml:3: a second document starts without a --- separator"},
		{"bad.json", "{\n  \"a\": 1,\n}\n", "bad.json:3: invalid character '}'"},
		{"two.json", "{}\n{}\n", "two.json:2: more data after the JSON value"},
		{"x.json", "a: 1\n", "x.json:1: invalid character 'a'"},
	} {
		_, err := Parse(c.name, []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want prefix %q", c.in, err, c.want)
		}
	}
}

// Go template text inside a document that parses is just text: real CRD
// descriptions quote templates.
func TestParseTemplateText(t *testing.T) {
	in := "description: |-\n  name defaults to `{{ .cluster.name }}-{{ .random }}`\nother: a {{ b }} c\n"
	if _, err := Parse("d.yaml", []byte(in)); err != nil {
		t.Errorf("Parse: %v", err)
	}
}

func TestLine(t *testing.T) {
	in := "a: 1\n---\n# c\nspec:\n  versions:\n  - name: v1\n    on: x\n  - name: v2\n    schema:\n      x: 1\n"
	f, err := Parse("l.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Docs[1]
	for _, c := range []struct {
		path []interface{}
		want int
	}{
		{nil, 4},
		{[]interface{}{"spec"}, 4},
		{[]interface{}{"spec", "versions", 0}, 6},
		{[]interface{}{"spec", "versions", 0, "true"}, 7},
		{[]interface{}{"spec", "versions", 1, "schema", "x"}, 10},
		{[]interface{}{"spec", "versions", 1, "schema", "missing", "deeper"}, 9},
		{[]interface{}{"spec", "versions", 7}, 5},
	} {
		if got := d.Line(c.path); got != c.want {
			t.Errorf("Line(%v) = %d, want %d", c.path, got, c.want)
		}
	}
}

func TestKeyString(t *testing.T) {
	f, err := Parse("k.yaml", []byte("on: 1\n'on': 2x\n0x10: 3\n1.5: 4\n!!str y: 5\nplain-key.x/y: 6\nNo: 7\n1.0: 8\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := deref(f.Docs[0].root)
	want := []string{"true", "on", "16", "1.5", "y", "plain-key.x/y", "false", "1"}
	for i, w := range want {
		if got, ok := keyString(m.Content[2*i]); !ok || got != w {
			t.Errorf("keyString(%q) = %q, %v; want %q", m.Content[2*i].Value, got, ok, w)
		}
		if _, ok := f.Docs[0].Value()[w]; !ok {
			t.Errorf("decoded value has no key %q", w)
		}
	}
}

// TestEmpty checks Empty, and that it agrees with Parse wherever Parse
// reads the file: a file is empty exactly when no document Parse finds in
// it has content. (A JSON file of white space, or a line holding only a
// tab, does not parse; Empty calls it empty.)
func TestEmpty(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       bool
	}{
		{"a.yaml", "", true},
		{"a.yaml", "\n  \n\t\n", true},
		{"a.yaml", "# only a comment\n---\n  # and another\n", true},
		{"a.yaml", "--- # a comment\n...\n---\n", true},
		{"a.yaml", "%YAML 1.1\n---\n", true},
		{"a.yaml", "--- {a: 1}\n", false},
		{"a.yaml", "---\nnull\n", false},
		{"a.yaml", "# c\nkind: ConfigMap", false},
		{"a.yaml", "  - a\n", false},
		{"a.yaml", "---x\n", false},
		{"a.json", " \n", true},
		{"a.json", "{}", false},
		{"a.yaml", " {\"kind\": \"ConfigMap\"}", false},
	} {
		if got := Empty(c.name, []byte(c.data)); got != c.want {
			t.Errorf("Empty(%s, %q) = %v, want %v", c.name, c.data, got, c.want)
		}
		f, err := Parse(c.name, []byte(c.data))
		if err != nil {
			continue
		}
		content := false
		for _, d := range f.Docs {
			content = content || d.value != nil || d.root != nil && !emptyNode(d.root)
		}
		if content == c.want {
			t.Errorf("Parse(%s, %q) finds a document with content: %v, want %v", c.name, c.data, content, !c.want)
		}
	}
}

// emptyNode reports whether a document node holds nothing: yaml.v3 gives
// a document with only comments after "---" an empty null scalar.
func emptyNode(doc *yaml.Node) bool {
	for _, n := range doc.Content {
		if n.Kind != yaml.ScalarNode || n.Tag != "!!null" || n.Value != "" {
			return false
		}
	}
	return true
}

// A document with content whose root is not a mapping is not a manifest;
// an empty one is nothing at all.
func TestNotMapping(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"m.yaml", "a: 1\n", ""},
		{"m.yaml", "---\n# only a comment\n", ""},
		{"m.yaml", "--- \n", ""},
		{"m.yaml", "- a\n- b\n", "a list"},
		{"m.yaml", "[1, 2]\n", "a list"},
		{"m.yaml", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/sbin/nologin\n", "a string"},
		{"m.yaml", "--- |\n  text\n", "a string"},
		{"m.yaml", "42\n", "a number"},
		{"m.yaml", "true\n", "a boolean"},
		{"m.yaml", "null\n", "null"},
		{"m.yaml", "~\n", "null"},
		{"m.yaml", "&a [1]\n", "a list"},
		{"m.json", "[{\"kind\": \"ConfigMap\"}]\n", "a list"},
		{"m.json", "null", "null"},
		{"m.json", "{}", ""},
	} {
		f, err := Parse(c.name, []byte(c.in))
		if err != nil {
			t.Errorf("Parse(%s, %q): %v", c.name, c.in, err)
			continue
		}
		if got := f.Docs[0].NotMapping(); got != c.want {
			t.Errorf("Parse(%s, %q).Docs[0].NotMapping() = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}
