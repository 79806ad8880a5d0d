package manifest

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/translate"
)

// editTree applies edits to a yaml.v3 node tree, for documents that are
// re-encoded rather than spliced. A created x-kubernetes-validations key
// takes the place of the first removed key, or goes last.
func editTree(root *yaml.Node, edits []translate.Edit, flow bool) error {
	for i, e := range edits {
		m, err := findMapping(root, e.Path)
		if err != nil {
			return fmt.Errorf("edit %d at %s: %v", i+1, renderPath(e.Path), err)
		}
		at := removeKeys(m, e.Remove)
		if len(e.AddRules) > 0 {
			addRuleNodes(m, at, e.AddRules, flow)
		}
	}
	return nil
}

// removeKeys deletes key/value pairs and returns where the first of them
// was (as an index into m.Content), or the end of the mapping.
func removeKeys(m *yaml.Node, keys []string) int {
	at := len(m.Content)
	for _, k := range keys {
		if i := keyIndex(m, k); i >= 0 {
			at = min(at, i)
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
		}
	}
	return min(at, len(m.Content))
}

func addRuleNodes(m *yaml.Node, at int, rules []translate.Rule, flow bool) {
	var items []*yaml.Node
	for _, r := range rules {
		items = append(items, ruleNode(r, flow))
	}
	if i := keyIndex(m, validationsKey); i >= 0 && m.Content[i+1].Kind == yaml.SequenceNode {
		seq := m.Content[i+1]
		seq.Content = append(seq.Content, items...)
		return
	} else if i >= 0 {
		m.Content[i+1] = seqNode(items, flow) // null: becomes the list
		return
	}
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: validationsKey}
	pair := []*yaml.Node{key, seqNode(items, flow)}
	m.Content = append(m.Content[:at:at], append(pair, m.Content[at:]...)...)
}

func seqNode(items []*yaml.Node, flow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return n
}

// ruleNode builds the mapping of one rule, each string in the style
// scalarStyle picks so that the encoder cannot write a YAML 1.1 boolean.
func ruleNode(r translate.Rule, flow bool) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		m.Style = yaml.FlowStyle
	}
	for _, f := range ruleFields(r) {
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f[0]}
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f[1], Style: scalarStyle(f[1])}
		if flow {
			v.Style = yaml.DoubleQuotedStyle // JSON strings
		}
		m.Content = append(m.Content, k, v)
	}
	return m
}
