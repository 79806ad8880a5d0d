package randomcrd

// bound sets a collection's maximum, now and then a minimum of one, and
// rarely leaves it unbounded (translate may then refuse on cost, or need
// two-variable comprehensions).
func (g *schemaGen) bound(n map[string]interface{}, maxKey, minKey string) map[string]interface{} {
	if g.rnd.Intn(16) > 0 {
		n[maxKey] = int64(1 + g.rnd.Intn(8))
	}
	if g.rnd.Intn(8) == 0 {
		n[minKey] = int64(1)
	}
	return n
}

// rare returns a schema translate may legitimately refuse to constrain:
// preserved unknown fields, int-or-string, a free-form object
// (additionalProperties: true), an embedded resource whose metadata has
// declarations of its own, which only name and generateName may carry.
func (g *schemaGen) rare() map[string]interface{} {
	switch g.rnd.Intn(4) {
	case 0:
		return map[string]interface{}{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	case 1:
		return map[string]interface{}{"x-kubernetes-int-or-string": true}
	case 2:
		return map[string]interface{}{"type": "object", "maxProperties": int64(4), "additionalProperties": true}
	}
	name := g.scalarOf("string")
	delete(name, "default")
	labels := g.bound(map[string]interface{}{"type": "object", "additionalProperties": g.scalarOf("string")}, "maxProperties", "minProperties")
	g.declare(name)
	g.declare(labels)
	n := map[string]interface{}{
		"type": "object", "x-kubernetes-embedded-resource": true,
		"properties": map[string]interface{}{
			"data":     map[string]interface{}{"type": "string", "maxLength": int64(8)},
			"metadata": map[string]interface{}{"type": "object", "properties": map[string]interface{}{"name": name, "labels": labels}},
		},
	}
	if g.rnd.Intn(2) == 0 {
		n["x-kubernetes-preserve-unknown-fields"] = true
	}
	return n
}

func (g *schemaGen) mapSchema(depth int) map[string]interface{} {
	return g.bound(map[string]interface{}{"type": "object", "additionalProperties": g.entry(depth)}, "maxProperties", "minProperties")
}

// entry is the schema of map values and atomic list items, now and then
// nullable: a null entry is a value (semantics.md 2.1), on which the
// apiserver runs no rule.
func (g *schemaGen) entry(depth int) map[string]interface{} {
	n := g.node(depth)
	if g.rnd.Intn(8) == 0 {
		n["nullable"] = true
	}
	return n
}

func (g *schemaGen) atomicList(depth int) map[string]interface{} {
	n := g.bound(map[string]interface{}{"type": "array", "items": g.entry(depth)}, "maxItems", "minItems")
	if g.rnd.Intn(2) == 0 {
		n["x-kubernetes-list-type"] = "atomic"
	}
	return n
}

// setList has scalar items, now and then atomic objects or lists: the
// apiserver requires set items to be scalars or atomic.
func (g *schemaGen) setList() map[string]interface{} {
	var items map[string]interface{}
	switch g.rnd.Intn(8) {
	case 0:
		items = map[string]interface{}{"type": "object", "x-kubernetes-map-type": "atomic", "properties": map[string]interface{}{
			"a": g.scalarOf("string"), g.pick("x-y", "__meta__"): g.scalarOf("integer"),
		}}
	case 1:
		items = map[string]interface{}{"type": "array", "x-kubernetes-list-type": "atomic", "maxItems": int64(3), "items": g.scalarOf("string")}
	default:
		items = g.scalar()
	}
	delete(items, "default")
	g.declare(items)
	return g.bound(map[string]interface{}{"type": "array", "x-kubernetes-list-type": "set", "items": items}, "maxItems", "minItems")
}

// listMap has one or two required scalar keys and other properties. A
// number key is paired by value, whatever its spelling (numberPool).
func (g *schemaGen) listMap(depth int) map[string]interface{} {
	item := g.object(depth)
	props := item["properties"].(map[string]interface{})
	var keys []interface{}
	for _, k := range []string{g.pick("k", "__kind__"), "x-y"}[:1+g.rnd.Intn(2)] {
		key := g.scalarOf([]string{"string", "integer", "number"}[g.rnd.Intn(3)])
		delete(key, "default")
		g.declare(key)
		props[k] = key
		keys = append(keys, k)
	}
	required, _ := item["required"].([]interface{})
	item["required"] = append(append([]interface{}{}, keys...), required...)
	dropUnionsOf(item, keys)
	return g.bound(map[string]interface{}{
		"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": keys, "items": item,
	}, "maxItems", "minItems")
}

func (g *schemaGen) pick(from ...string) string { return from[g.rnd.Intn(len(from))] }

func (g *schemaGen) scalar() map[string]interface{} {
	return g.scalarOf([]string{"string", "string", "integer", "number", "boolean"}[g.rnd.Intn(5)])
}

func (g *schemaGen) scalarOf(typ string) map[string]interface{} {
	n := map[string]interface{}{"type": typ}
	switch typ {
	case "string":
		n["maxLength"] = int64(1 + g.rnd.Intn(64))
		switch g.rnd.Intn(8) {
		case 0:
			n["enum"] = []interface{}{"a", "b"}
		case 1:
			n["format"] = []string{"date-time", "byte", "duration", "date"}[g.rnd.Intn(4)]
			n["maxLength"] = int64(64)
		case 2:
			n["pattern"] = "^[a-c]+(-[a-c]+)?$"
			n["maxLength"] = int64(16)
		}
		_, enum := n["enum"]
		_, format := n["format"]
		_, pattern := n["pattern"]
		if (enum || !format && !pattern) && g.rnd.Intn(6) == 0 {
			n["default"] = "a"
		}
	case "integer":
		if g.rnd.Intn(3) == 0 {
			n["minimum"], n["maximum"] = int64(0), int64(3)
		}
		if g.rnd.Intn(4) == 0 {
			n["format"] = "int32"
		}
		if g.rnd.Intn(5) == 0 {
			n["default"] = int64(1)
		}
	}
	return n
}
