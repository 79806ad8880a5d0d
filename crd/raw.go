package crd

import (
	"encoding/json"
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/decl"
)

// The raw document, for the readers that need a node's own keys: the
// placement of a declaration (which keys its node has), the rules an
// earlier run left on a node, the typed CRD the apiserver validates.
// Nothing outside this package follows document paths or decodes a whole
// CRD itself.

// NodeAt is the decoded schema node p names, and whether the version's
// schema has it. It is the document's own map.
func (v *Version) NodeAt(p decl.Path) (map[string]interface{}, bool) {
	rel, ok := p.Resolve(v.Raw)
	if !ok {
		return nil, false
	}
	return mappingAt(v.Raw, rel)
}

// Walk calls f on every schema node of the version reachable through
// properties (in name order), items and additionalProperties, parents
// first, with its document path. A version without a schema has none.
func (v *Version) Walk(f func(path []interface{}, node map[string]interface{})) {
	if v.Raw != nil {
		walk(v.Raw, v.Root(), false, false, func(path []interface{}, node map[string]interface{}, _ bool) { f(path, node) })
	}
}

// WalkAll is Walk into the junctors as well: after a node's other
// children, the branches of allOf, anyOf and oneOf in order, then not.
// inJunctor tells f that the node lies in one, where no decl.Path can
// name it.
func (v *Version) WalkAll(f func(path []interface{}, node map[string]interface{}, inJunctor bool)) {
	if v.Raw != nil {
		walk(v.Raw, v.Root(), true, false, f)
	}
}

func walk(node map[string]interface{}, path []interface{}, junctors, inJunctor bool, f func([]interface{}, map[string]interface{}, bool)) {
	f(path, node, inJunctor)
	if props, ok := node["properties"].(map[string]interface{}); ok {
		names := slices.Sorted(maps.Keys(props))
		for _, name := range names {
			if child, ok := props[name].(map[string]interface{}); ok {
				walk(child, extend(path, "properties", name), junctors, inJunctor, f)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if child, ok := node[key].(map[string]interface{}); ok {
			walk(child, extend(path, key), junctors, inJunctor, f)
		}
	}
	if !junctors {
		return
	}
	for _, junctor := range []string{"allOf", "anyOf", "oneOf"} {
		branches, _ := node[junctor].([]interface{})
		for i, b := range branches {
			if branch, ok := b.(map[string]interface{}); ok {
				walk(branch, extend(path, junctor, i), junctors, true, f)
			}
		}
	}
	if not, ok := node["not"].(map[string]interface{}); ok {
		walk(not, extend(path, "not"), junctors, true, f)
	}
}

// Mapping is the mapping at a document path of the CRD, as an edit or a
// problem names it, and whether there is one.
func (c *CRD) Mapping(path []interface{}) (map[string]interface{}, bool) {
	return mappingAt(c.doc, path)
}

// Typed is the whole CRD in the apiserver's v1 types, for its CRD
// validation; declarations still in the schemas are dropped by the
// decoding, as the apiserver drops unknown keys.
func (c *CRD) Typed() (*apiextensionsv1.CustomResourceDefinition, error) {
	typed := &apiextensionsv1.CustomResourceDefinition{}
	if err := convertJSON(c.doc, typed); err != nil {
		return nil, err
	}
	return typed, nil
}

// TypedSchema is a decoded version schema, such as Version.Raw with
// rules added, in the apiserver's v1 type, without the declarations.
func TypedSchema(raw map[string]interface{}) (*apiextensionsv1.JSONSchemaProps, error) {
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := convertJSON(StripDeclarations(raw), props); err != nil {
		return nil, err
	}
	return props, nil
}

func convertJSON(in interface{}, out interface{}) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// mappingAt follows a document path from doc to a mapping.
func mappingAt(doc interface{}, path []interface{}) (map[string]interface{}, bool) {
	cur := doc
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]interface{})
			if !ok {
				return nil, false
			}
			cur = m[s]
		case int:
			l, ok := cur.([]interface{})
			if !ok || s < 0 || s >= len(l) {
				return nil, false
			}
			cur = l[s]
		}
	}
	m, ok := cur.(map[string]interface{})
	return m, ok
}

func extend(p []interface{}, steps ...interface{}) []interface{} {
	return append(append(make([]interface{}, 0, len(p)+len(steps)), p...), steps...)
}
