package crd

import "github.com/mut2cel/mut2cel/decl"

// StripDeclarations copies a raw schema without the declarations of
// every kind (decl.Kinds), which the apiserver's types do not know.
func StripDeclarations(raw map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(raw))
	for k, v := range raw {
		if _, isDecl := decl.KindNamed(k); isDecl {
			continue
		}
		switch k {
		case "properties":
			if props, ok := v.(map[string]interface{}); ok {
				copied := make(map[string]interface{}, len(props))
				for name, p := range props {
					if pm, ok := p.(map[string]interface{}); ok {
						copied[name] = StripDeclarations(pm)
					} else {
						copied[name] = p
					}
				}
				v = copied
			}
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]interface{}); ok {
				v = StripDeclarations(m)
			}
		case "allOf", "anyOf", "oneOf":
			if list, ok := v.([]interface{}); ok {
				copied := make([]interface{}, len(list))
				for i, b := range list {
					if bm, ok := b.(map[string]interface{}); ok {
						copied[i] = StripDeclarations(bm)
					} else {
						copied[i] = b
					}
				}
				v = copied
			}
		}
		out[k] = v
	}
	return out
}
