// Package storage is the apiserver's storage pipeline for custom
// resources (internal/kube.Store and StoreValue: pruning of unknown
// fields, dropping the nulls of non-nullable fields without a default,
// defaulting), compiled once per structural schema.
//
// In: a structural schema and decoded JSON values. Out: the values as the
// pipeline leaves them, changed in place as the pipeline changes them.
//
// Invariants:
//
//   - Node.Store and Node.StoreValue leave every value as kube.Store and
//     kube.StoreValue do: each step is the apiserver's
//     (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning and
//     defaulting), rule for rule, on nodes compiled from the schema
//     instead of copies of its structs at every key; the tests hold both
//     to each other on generated and hostile values.
//   - A compiled node knows whether a default is set at or below it, and
//     the defaulting step walks no value below a node that has none.
package storage

import (
	"maps"
	"slices"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
)

// Node is one node of a structural schema, compiled.
type Node struct {
	// S is the node's schema.
	S *schema.Structural

	props map[string]*Node
	// addlSet: the schema has additionalProperties; addl is the node of
	// its schema, nil when it has none (additionalProperties: bool).
	addlSet bool
	addl    *Node
	items   *Node

	preserve, embedded, nullable bool
	def                          interface{} // the default, nil for none
	// defaults are the properties with a default; defaultsBelow: a
	// default is set at or below the node.
	defaults      []defaulted
	defaultsBelow bool
}

type defaulted struct {
	name string
	node *Node
}

// Compile compiles s and every node below it.
func Compile(s *schema.Structural) *Node {
	if s == nil {
		return nil
	}
	n := &Node{S: s, preserve: s.XPreserveUnknownFields, embedded: s.XEmbeddedResource, nullable: s.Nullable, def: s.Default.Object}
	if len(s.Properties) > 0 {
		n.props = make(map[string]*Node, len(s.Properties))
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[k]
			c := Compile(&p)
			n.props[k] = c
			if c.def != nil {
				n.defaults = append(n.defaults, defaulted{k, c})
			}
			n.defaultsBelow = n.defaultsBelow || c.defaultsBelow
		}
	}
	if s.AdditionalProperties != nil {
		n.addlSet = true
		n.addl = Compile(s.AdditionalProperties.Structural)
		if n.addl != nil {
			n.defaultsBelow = n.defaultsBelow || n.addl.defaultsBelow
		}
	}
	n.items = Compile(s.Items)
	if n.items != nil {
		n.defaultsBelow = n.defaultsBelow || n.items.defaultsBelow
	}
	n.defaultsBelow = n.defaultsBelow || n.def != nil
	return n
}

// Property is the node of the value of key k of an object of n: its
// property, or additionalProperties; nil for a key n has no schema for.
func (n *Node) Property(k string) *Node {
	if p, ok := n.props[k]; ok {
		return p
	}
	return n.addl
}

// Items is the node of the items of a list of n, nil for none.
func (n *Node) Items() *Node { return n.items }

// Store runs obj, the root of a custom resource, through the pipeline in
// place and returns it: kube.Store.
func (n *Node) Store(obj map[string]interface{}) map[string]interface{} {
	// pruning.PruneWithOptions treats the root as an embedded resource.
	prune(obj, n, true)
	pruneNulls(obj, n)
	applyDefaults(obj, n)
	return obj
}

// StoreValue runs v, a value below the root whose node is n, through the
// pipeline: kube.StoreValue. Maps and lists are changed in place.
func (n *Node) StoreValue(v interface{}) interface{} {
	prune(v, n, n.embedded)
	pruneNulls(v, n)
	applyDefaults(v, n)
	return v
}

var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// prune is pruning.prune; embedded stands for the node's
// x-kubernetes-embedded-resource, which the root's call sets.
func prune(x interface{}, n *Node, embedded bool) {
	if n != nil && n.preserve {
		skipPrune(x, n, embedded)
		return
	}
	switch x := x.(type) {
	case map[string]interface{}:
		if n == nil {
			for k := range x {
				delete(x, k)
			}
			return
		}
		for k, v := range x {
			if embedded && metaFields[k] {
				continue
			}
			if p, ok := n.props[k]; ok {
				prune(v, p, p.embedded)
			} else if n.addlSet {
				prune(v, n.addl, n.addl != nil && n.addl.embedded)
			} else {
				delete(x, k)
			}
		}
	case []interface{}:
		if n == nil {
			for _, v := range x {
				prune(v, nil, false)
			}
			return
		}
		for _, v := range x {
			prune(v, n.items, n.items != nil && n.items.embedded)
		}
	}
}

// skipPrune is pruning.skipPrune.
func skipPrune(x interface{}, n *Node, embedded bool) {
	if n == nil {
		return
	}
	switch x := x.(type) {
	case map[string]interface{}:
		for k, v := range x {
			if embedded && metaFields[k] {
				continue
			}
			if p, ok := n.props[k]; ok {
				prune(v, p, p.embedded)
			} else if n.addlSet {
				prune(v, n.addl, n.addl != nil && n.addl.embedded)
			}
		}
	case []interface{}:
		for _, v := range x {
			skipPrune(v, n.items, n.items != nil && n.items.embedded)
		}
	}
}

// pruneNulls is defaulting.PruneNonNullableNullsWithoutDefaults.
func pruneNulls(x interface{}, n *Node) {
	switch x := x.(type) {
	case map[string]interface{}:
		for k, v := range x {
			var c *Node
			if n != nil {
				c = n.Property(k)
			}
			if v == nil && c != nil && !c.nullable && c.def == nil {
				delete(x, k)
			} else {
				pruneNulls(v, c)
			}
		}
	case []interface{}:
		var c *Node
		if n != nil {
			c = n.items
		}
		for _, v := range x {
			pruneNulls(v, c)
		}
	}
}

// applyDefaults is defaulting.Default.
func applyDefaults(x interface{}, n *Node) {
	if n == nil || !n.defaultsBelow {
		return
	}
	switch x := x.(type) {
	case map[string]interface{}:
		for _, d := range n.defaults {
			if v, found := x[d.name]; !found || (v == nil && !d.node.nullable) {
				x[d.name] = runtime.DeepCopyJSONValue(d.node.def)
			}
		}
		for k, v := range x {
			if p, ok := n.props[k]; ok {
				applyDefaults(v, p)
			} else if n.addlSet {
				if v == nil && n.addl != nil && !n.addl.nullable {
					v = runtime.DeepCopyJSONValue(n.addl.def)
					x[k] = v
				}
				applyDefaults(v, n.addl)
			}
		}
	case []interface{}:
		for i := range x {
			if x[i] == nil && n.items != nil && !n.items.nullable {
				x[i] = runtime.DeepCopyJSONValue(n.items.def)
			}
			applyDefaults(x[i], n.items)
		}
	}
}
