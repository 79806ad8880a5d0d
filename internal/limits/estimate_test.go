package limits

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestEstimateValues checks that the estimate is never below the number
// of nodes yaml.v3 parses, on every shape a value can be introduced in.
func TestEstimateValues(t *testing.T) {
	for _, doc := range []string{
		"",
		"a",
		"a: b",
		"a: {b: c, d}",
		"[a, b, [c, d], {e: f}]",
		"- a\n- b\n- - c\n  - d\n",
		"? a\n: b\n? c\n",
		"a: &x [1, 2]\nb: *x\n",
		"a: |\n  text\n  more\n",
		"---\na: 1\n---\nb: 2\n---\n- 3\n",
		`{"a": [1, 2, {"b": null}], "c": "d"}`,
		"[a: b, c: d]",
		"{a, b, c}",
	} {
		want := 0
		dec := yaml.NewDecoder(strings.NewReader(doc))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				break
			}
			want += count(&n)
		}
		if got := EstimateValues([]byte(doc)); got < want {
			t.Errorf("EstimateValues(%q) = %d, want at least the %d nodes parsed", doc, got, want)
		}
	}
}

// count counts the values of a parsed document: its nodes, without the
// document node itself.
func count(n *yaml.Node) int {
	c := 0
	if n.Kind != yaml.DocumentNode {
		c = 1
	}
	for _, k := range n.Content {
		c += count(k)
	}
	return c
}

// BenchmarkEstimateValues measures the estimate on a megabyte of flow
// list, the densest YAML there is.
func BenchmarkEstimateValues(b *testing.B) {
	data := []byte("a: [" + strings.Repeat("0,", 1<<19) + "0]\n")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		EstimateValues(data)
	}
}
