package decl

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A declarations file is read as yaml.v3 nodes, not decoded into maps:
// a node keeps its line for the messages, and a key written twice in one
// mapping, which a decoder would keep the last of, can be found.

// duplicateKey returns the first key written a second time in one
// mapping of n, with its first occurrence; nil when there is none.
// Aliases are not followed.
func duplicateKey(n *yaml.Node) (dup, first *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if f, twice := seen[k.Value]; twice && k.Kind == yaml.ScalarNode {
				return k, f
			}
			seen[k.Value] = k
		}
	}
	if n.Kind == yaml.AliasNode {
		return nil, nil
	}
	for _, c := range n.Content {
		if dup, first = duplicateKey(c); dup != nil {
			return dup, first
		}
	}
	return nil, nil
}

// Anchors, aliases and merge keys (<<) are read as in the annotation
// (and as kubectl reads manifests): an alias stands for the node it names,
// and the keys a merge brings in yield to those written in the mapping.
// Alias expansion is bounded as when decoding: expandable decodes the
// document first, and yaml.v3 refuses one whose aliases would expand it
// out of proportion to its text ("billion laughs").

// expandable reports the error of decoding n, which bounds what reading
// its aliases may cost.
func expandable(n *yaml.Node) error {
	var v interface{}
	return n.Decode(&v)
}

// deref returns the node an alias stands for, or n.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// pairs returns the keys and values of mapping n, with those of its merge
// keys in: first the merged ones a key of n does not override, then n's
// own, in their order.
func pairs(n *yaml.Node) [][2]*yaml.Node {
	var own, merged [][2]*yaml.Node
	has := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Tag != "!!merge" {
			own, has[k.Value] = append(own, [2]*yaml.Node{k, v}), true
			continue
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			if src = deref(src); src.Kind == yaml.MappingNode {
				merged = append(merged, pairs(src)...)
			}
		}
	}
	var out [][2]*yaml.Node
	for _, p := range merged {
		if !has[p[0].Value] {
			out, has[p[0].Value] = append(out, p), true
		}
	}
	return append(out, own...)
}

// yamlErrorLine finds the line yaml.v3 names in a syntax error.
func yamlErrorLine(err error) int {
	var line int
	if _, scanErr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line); scanErr != nil {
		return 0
	}
	return line
}

// cleanYAML is yaml.v3's message without its prefix and line, which the
// message's Source gives.
func cleanYAML(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(s, ": "); strings.HasPrefix(s, "line ") && i > 0 {
		return s[i+2:]
	}
	return s
}
