package manifest

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/mut2cel/mut2cel/edit"
	yaml "go.yaml.in/yaml/v3"
)

// editTree applies edits to a yaml.v3 node tree, for documents that are
// re-encoded rather than spliced. value is the document's decoded value,
// which tells the list items that RemoveRules names. A created
// x-kubernetes-validations key takes the place of the first removed key,
// or goes last; created mappings and set keys go last.
func editTree(root *yaml.Node, value map[string]interface{}, edits []edit.Edit, flow bool) error {
	cur := edit.Copy(value).(map[string]interface{})
	for i, e := range edits {
		if err := editNode(root, cur, e, flow); err != nil {
			return fmt.Errorf("edit %d at %s: %v", i+1, edit.Render(e.Path), err)
		}
		if err := e.ApplyTo(cur); err != nil {
			return fmt.Errorf("edit %d at %s: %v", i+1, edit.Render(e.Path), err)
		}
	}
	return nil
}

func editNode(root *yaml.Node, cur map[string]interface{}, e edit.Edit, flow bool) error {
	if e.Create {
		if err := createNode(root, e.Path, flow); err != nil {
			return err
		}
	}
	m, err := findMapping(root, e.Path)
	if err != nil {
		return err
	}
	before := len(m.Content)
	at := removeKeys(m, e.Remove)
	if at == before {
		at = -1 // nothing removed: a new list goes last
	}
	data, _ := edit.Mapping(cur, e.Path)
	if len(e.RemoveRules) > 0 {
		removeRuleNodes(m, data, e)
	}
	for _, s := range e.Set {
		setNode(m, s, flow)
	}
	if len(e.AddRules) > 0 {
		if at < 0 {
			at = len(m.Content)
		}
		addRuleNodes(m, at, e.AddRules, flow)
	}
	return nil
}

// createNode makes the last step of path an empty mapping when it is
// absent or null.
func createNode(root *yaml.Node, path []interface{}, flow bool) error {
	key, ok := path[len(path)-1].(string)
	if !ok {
		return fmt.Errorf("only a mapping key can be created")
	}
	parent, err := findMapping(root, path[:len(path)-1])
	if err != nil {
		return err
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		m.Style = yaml.FlowStyle
	}
	if i := keyIndex(parent, key); i >= 0 {
		if v := parent.Content[i+1]; v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
			parent.Content[i+1] = m
		}
		return nil
	}
	parent.Content = append(parent.Content, keyNode(key, flow), m)
	return nil
}

// removeRuleNodes deletes the list items equal to a rule of RemoveRules,
// and the list with its key when that empties it and no rules are added.
// The items correspond one to one to the decoded list in data.
func removeRuleNodes(m *yaml.Node, data map[string]interface{}, e edit.Edit) {
	i := keyIndex(m, edit.ValidationsKey)
	list, _ := data[edit.ValidationsKey].([]interface{})
	if i < 0 || m.Content[i+1].Kind != yaml.SequenceNode || len(m.Content[i+1].Content) != len(list) {
		return // edit.Apply reports the problem
	}
	seq := m.Content[i+1]
	var kept []*yaml.Node
	for j, item := range seq.Content {
		if !equalsAnyRule(list[j], e.RemoveRules) {
			kept = append(kept, item)
		}
	}
	seq.Content = kept
	if len(kept) == 0 && len(e.AddRules) == 0 {
		m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
	}
}

func equalsAnyRule(v interface{}, rules []edit.Rule) bool {
	for _, r := range rules {
		if reflect.DeepEqual(v, r.Value()) {
			return true
		}
	}
	return false
}

// setNode sets a scalar key, replacing the value node of a present key.
func setNode(m *yaml.Node, s edit.Setting, flow bool) {
	v := valueNode(s.Value, flow)
	if i := keyIndex(m, s.Key); i >= 0 {
		m.Content[i+1] = v
		return
	}
	m.Content = append(m.Content, keyNode(s.Key, flow), v)
}

func keyNode(k string, flow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Style: scalarStyle(k)}
	if flow || n.Style == yaml.LiteralStyle {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func valueNode(v interface{}, flow bool) *yaml.Node {
	switch t := v.(type) {
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(t, 10)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}
	}
	s, _ := v.(string)
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: scalarStyle(s)}
	if flow {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
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
	return at
}

func addRuleNodes(m *yaml.Node, at int, rules []edit.Rule, flow bool) {
	var items []*yaml.Node
	for _, r := range rules {
		items = append(items, ruleNode(r, flow))
	}
	if i := keyIndex(m, edit.ValidationsKey); i >= 0 && m.Content[i+1].Kind == yaml.SequenceNode {
		seq := m.Content[i+1]
		seq.Content = append(seq.Content, items...)
		return
	} else if i >= 0 {
		m.Content[i+1] = seqNode(items, flow) // null: becomes the list
		return
	}
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: edit.ValidationsKey}
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
func ruleNode(r edit.Rule, flow bool) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		m.Style = yaml.FlowStyle
	}
	for _, f := range r.Fields() {
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f[0]}
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f[1], Style: scalarStyle(f[1])}
		if flow {
			v.Style = yaml.DoubleQuotedStyle // JSON strings
		}
		m.Content = append(m.Content, k, v)
	}
	return m
}
