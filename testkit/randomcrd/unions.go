package randomcrd

import (
	"maps"
	"slices"
	"strings"
)

// declareUnion puts a union on the object n now and then, when it has at
// least two optional properties without a default: with or without a
// discriminator (a string property type, added for it), at most one or
// exactly one member. A union of the root's spec or status is nested one
// level; one of list items and map values comes with them.
func (g *schemaGen) declareUnion(n map[string]interface{}) {
	props := n["properties"].(map[string]interface{})
	required, _ := n["required"].([]interface{})
	var optional []string
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]interface{})
		if _, defaulted := p["default"]; !defaulted && !slices.Contains(required, interface{}(name)) {
			optional = append(optional, name)
		}
	}
	if len(optional) < 2 || g.rnd.Intn(2) == 0 {
		return
	}
	g.rnd.Shuffle(len(optional), func(i, j int) { optional[i], optional[j] = optional[j], optional[i] })
	members := map[string]interface{}{}
	for _, name := range optional[:2+g.rnd.Intn(len(optional)-1)] {
		members[name] = strings.ToUpper(name[:1]) + name[1:]
	}
	u := map[string]interface{}{"fields-to-discriminateBy": members}
	if _, taken := props["type"]; !taken && g.rnd.Intn(2) == 0 {
		props["type"] = map[string]interface{}{"type": "string", "maxLength": int64(16)}
		u["discriminator"] = "type"
	}
	if g.rnd.Intn(2) == 0 {
		u["exactlyOne"] = true
	}
	var zero []interface{}
	for _, name := range slices.Sorted(maps.Keys(members)) {
		if oneZero(props[name].(map[string]interface{})) && g.zeroIn.Intn(3) == 0 {
			zero = append(zero, name)
		}
	}
	if len(zero) > 0 {
		u["zeroIsUnset"] = zero
	}
	n["x-kubernetes-unions"] = []interface{}{u}
	g.decls++
}

// oneZero says whether the values of the schema p have one zero value
// that zeroIsUnset may read as unset: strings CEL reads as strings,
// numbers, booleans, lists and maps.
func oneZero(p map[string]interface{}) bool {
	switch p["type"] {
	case "string":
		f, _ := p["format"].(string)
		return f != "date" && f != "date-time" && f != "duration" && f != "byte"
	case "integer", "number", "boolean", "array":
		return true
	case "object":
		_, isMap := p["additionalProperties"].(map[string]interface{})
		return isMap
	}
	return false
}

// dropUnionsOf removes the unions of a list-map item that name one of its
// key fields, which listMap made required scalars after the union was
// declared.
func dropUnionsOf(item map[string]interface{}, keys []interface{}) {
	unions, _ := item["x-kubernetes-unions"].([]interface{})
	var kept []interface{}
	for _, e := range unions {
		u := e.(map[string]interface{})
		members := u["fields-to-discriminateBy"].(map[string]interface{})
		clash := slices.Contains(keys, u["discriminator"])
		for _, k := range keys {
			if _, ok := members[k.(string)]; ok {
				clash = true
			}
		}
		if !clash {
			kept = append(kept, u)
		}
	}
	if len(kept) == 0 {
		delete(item, "x-kubernetes-unions")
		return
	}
	item["x-kubernetes-unions"] = kept
}
