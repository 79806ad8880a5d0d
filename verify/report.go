package verify

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// YAML renders the counterexample as one YAML document:
//
//	crd: widgets.example.com
//	version: v1
//	pair: 12
//	reference: denied
//	violations:
//	- 'spec.a: presence: ...'
//	cel: allowed
//	errors: []
//	rules:
//	- path: .spec.a
//	  rule: self == oldSelf
//	old: {spec: {a: x}}
//	new: {}
//
// Map keys of the objects are sorted; a float that a client sent with an
// integral value is written 1.0, so the pair can be replayed exactly.
func (c *Counterexample) YAML() []byte {
	kv := []interface{}{
		"crd", scalar(c.CRD),
		"version", scalar(c.Version),
		"pair", scalar(c.Pair),
		"reference", scalar(c.ReferenceVerdict()),
		"violations", stringList(violationLines(c.Reference)),
	}
	if len(c.Companions) > 0 {
		// The declared CRD's own rules that deny: shown only when there
		// are any, so that reports of CRDs without them do not change.
		kv = append(kv, "companions", stringList(c.Companions))
	}
	kv = append(kv,
		"cel", scalar(c.CELVerdict()),
		"errors", stringList(c.Errors),
		"rules", c.rulesNode(),
		"old", valueNode(c.Old),
		"new", valueNode(c.New),
	)
	doc := mapping(kv...)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return []byte(fmt.Sprintf("# cannot render: %v\n", err))
	}
	_ = enc.Close()
	return b.Bytes()
}

// PairYAML renders a generated pair as one YAML document: its number,
// then the old and the new object as a client sends them.
func PairYAML(e Example) []byte {
	doc := mapping("pair", scalar(e.Pair), "old", valueNode(e.Old), "new", valueNode(e.New))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return []byte(fmt.Sprintf("# cannot render: %v\n", err))
	}
	_ = enc.Close()
	return b.Bytes()
}

// ReferenceVerdict is the reference's verdict on the pair in one word:
// "denied" or "allowed".
func (c *Counterexample) ReferenceVerdict() string {
	return verdictWord(len(c.Reference) > 0 || len(c.Companions) > 0, false)
}

// CELVerdict is the verdict of the rules under test in one word:
// "denied", "allowed" or "evaluation error".
func (c *Counterexample) CELVerdict() string {
	return verdictWord(c.Denied, c.EvaluationError)
}

func verdictWord(denied, evalError bool) string {
	switch {
	case evalError:
		return "evaluation error"
	case denied:
		return "denied"
	}
	return "allowed"
}

func (c *Counterexample) rulesNode() *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, r := range c.Rules {
		n.Content = append(n.Content, mapping("path", scalar(r.Path), "rule", scalar(r.Rule)))
	}
	if len(n.Content) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

// mapping builds a mapping node from alternating keys and value nodes.
func mapping(kv ...interface{}) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i < len(kv); i += 2 {
		n.Content = append(n.Content, scalar(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

func scalar(v interface{}) *yaml.Node {
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(v)}
	}
	return n
}

func stringList(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, s := range items {
		n.Content = append(n.Content, scalar(s))
	}
	if len(items) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

// valueNode renders a decoded JSON value with sorted keys, keeping the
// difference between an integer and an integral float.
func valueNode(v interface{}) *yaml.Node {
	switch x := v.(type) {
	case map[string]interface{}:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			n.Content = append(n.Content, scalar(k), valueNode(x[k]))
		}
		if len(x) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case []interface{}:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			n.Content = append(n.Content, valueNode(e))
		}
		if len(x) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if x == math.Trunc(x) && !bytes.ContainsAny([]byte(s), "e.") {
			s += ".0"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: s}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	return scalar(v)
}
