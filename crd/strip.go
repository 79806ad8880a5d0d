package crd

import (
	"encoding/json"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
)

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

// Published copies a CRD document as its publisher wrote it: the
// declarations removed from every version schema, and the mut2cel.io
// annotations. Rules an earlier translation generated stay: give it a
// document whose generated rules were set aside (verify/declread does).
func Published(doc map[string]interface{}) (map[string]interface{}, error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	c, err := Read(out)
	if err != nil {
		return nil, err
	}
	for _, v := range c.Versions {
		if v.Raw == nil {
			continue
		}
		// Raw is the copy's own map: replace its content in place.
		stripped := StripDeclarations(v.Raw)
		for k := range v.Raw {
			delete(v.Raw, k)
		}
		for k, val := range stripped {
			v.Raw[k] = val
		}
	}
	for k := range c.Annotations {
		if strings.HasPrefix(k, "mut2cel.io/") {
			delete(c.Annotations, k)
		}
	}
	return out, nil
}
