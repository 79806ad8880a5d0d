package costest

import apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

// child follows the step of node at i (two steps for a property) and
// returns the child and the index of its last step.
func child(n *apiextensionsv1.JSONSchemaProps, node []string, i int) (*apiextensionsv1.JSONSchemaProps, int) {
	switch node[i] {
	case "properties":
		p := n.Properties[node[i+1]]
		return &p, i + 1
	case "items":
		return n.Items.Schema, i
	default: // additionalProperties
		return n.AdditionalProperties.Schema, i
	}
}

// SetBound sets a bound on the node of root it names. Properties are
// held by value, so the path is rebuilt on the way back.
func SetBound(n *apiextensionsv1.JSONSchemaProps, b NeededBound) {
	if len(b.Node) == 0 {
		v := b.Value
		switch b.Keyword {
		case MaxLength:
			n.MaxLength = &v
		case MaxItems:
			n.MaxItems = &v
		case MaxProperties:
			n.MaxProperties = &v
		}
		return
	}
	rest := NeededBound{Node: b.Node[1:], Keyword: b.Keyword, Value: b.Value}
	switch b.Node[0] {
	case "properties":
		p := n.Properties[b.Node[1]]
		SetBound(&p, NeededBound{Node: b.Node[2:], Keyword: b.Keyword, Value: b.Value})
		n.Properties[b.Node[1]] = p
	case "items":
		SetBound(n.Items.Schema, rest)
	case "additionalProperties":
		SetBound(n.AdditionalProperties.Schema, rest)
	}
}

// nodeAt follows node from root.
func nodeAt(root *apiextensionsv1.JSONSchemaProps, node []string) *apiextensionsv1.JSONSchemaProps {
	n := root
	for i := 0; i < len(node); i++ {
		n, i = child(n, node, i)
	}
	return n
}
