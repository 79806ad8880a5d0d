package builtin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// schemaReader turns the schemas of an OpenAPI v3 document into the
// structural schema of a CRD: what the document says of types, fields,
// list and map types, formats, enums, bounds and scalar defaults, with
// every reference resolved.
type schemaReader struct {
	doc *OpenAPI
	// stack holds the schemas being read, by name, to cut recursion;
	// names holds them in order, the innermost last, for messages.
	stack map[string]bool
	names []string
	// opaque holds the paths of the nodes that keep any value because the
	// document says no more of them, with the reason (Resource.Opaque).
	opaque map[string]string
	// made is what the kinds read from the document have expanded to.
	made *expansion
}

// reader is a schemaReader of the named schema of the document, adding
// what it reads to what the document's kinds have expanded to.
func (o *OpenAPI) reader(name string) *schemaReader {
	return &schemaReader{doc: o, stack: map[string]bool{name: true}, names: []string{name}, opaque: map[string]string{}, made: &o.made}
}

// copied are the keywords a node keeps as they are: what the structural
// schema of a CRD holds and the document writes the same way.
var copied = []string{
	"format", "enum", "nullable",
	"maxItems", "maxLength", "maxProperties", "minItems", "minLength", "minProperties",
	"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf",
	"x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type",
	"x-kubernetes-embedded-resource",
}

// node reads the schema s, found at path, as a structural schema node,
// with the references it is resolved, and counts it in what the
// document has expanded to: past a limit, the error says which, and
// names the schema being read.
func (r *schemaReader) node(s map[string]interface{}, path decl.Path) (map[string]interface{}, error) {
	n := level(path)
	if n > limits.Nesting {
		return nil, tooDeep(path, r.in())
	}
	depth := len(r.names)
	defer r.leave(depth)
	s, cut, err := r.resolve(s, path)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if cut {
		out = anything()
	} else if out, err = r.read(s, path); err != nil {
		return nil, err
	}
	if r.made.add(out, n) > limits.Nesting {
		return nil, tooDeep(path, r.in())
	}
	if r.made.over() {
		return nil, r.made.overError(path, r.in())
	}
	return out, nil
}

// resolve follows the references s is, entering each schema named (leave
// leaves them), to the schema they stand for. A type that contains
// itself is cut where it recurs, as the apiserver's own resolver of its
// documents cuts it (k8s.io/apiserver/pkg/cel/openapi/resolver.
// PopulateRefs): the node keeps whatever it holds.
func (r *schemaReader) resolve(s map[string]interface{}, path decl.Path) (map[string]interface{}, bool, error) {
	for {
		name, ok, err := r.reference(s, path)
		switch {
		case err != nil:
			return nil, false, err
		case !ok:
			return s, false, nil
		case r.stack[name]:
			r.keepsAny(path, "cut where schema "+name+" recurs within itself")
			return nil, true, nil
		}
		r.stack[name] = true
		r.names = append(r.names, name)
		s = r.doc.schemas[name].(map[string]interface{})
	}
}

// leave leaves the schemas entered past the first depth.
func (r *schemaReader) leave(depth int) {
	for _, name := range r.names[depth:] {
		delete(r.stack, name)
	}
	r.names = r.names[:depth]
}

// read reads the schema s, found at path and no reference, as a
// structural schema node.
func (r *schemaReader) read(s map[string]interface{}, path decl.Path) (map[string]interface{}, error) {
	if s["x-kubernetes-int-or-string"] == true {
		return map[string]interface{}{"x-kubernetes-int-or-string": true}, nil
	}
	typ, ok := s["type"].(string)
	if _, present := s["type"]; present && !ok {
		return nil, pathError(path, "type %v is not one type name", s["type"])
	}
	if typ == "" {
		return r.untyped(s, path)
	}
	out := map[string]interface{}{"type": typ}
	for _, k := range copied {
		if v, ok := s[k]; ok {
			out[k] = v
		}
	}
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
	var err error
	switch typ {
	case "object":
		err = r.object(s, out, path)
	case "array":
		err = r.array(s, out, path)
	case "string", "integer", "number", "boolean":
		if d, ok := s["default"]; ok && scalar(d) && allowed(d, s["enum"]) {
			out["default"] = d
		}
	default:
		err = pathError(path, "type %q is no type of a structural schema", typ)
	}
	return out, err
}

// reference says which named schema s stands for: {$ref: ...} with any
// siblings (the apiserver writes a description beside the reference to a
// CRD's metadata), or {allOf: [{$ref: ...}]}, as the apiserver writes a
// field of a named type, whose siblings (default, description) describe
// the field and not the type. Neither is read.
func (r *schemaReader) reference(s map[string]interface{}, path decl.Path) (string, bool, error) {
	ref, ok := s["$ref"]
	if !ok {
		all, isList := s["allOf"].([]interface{})
		if !isList || len(all) != 1 {
			return "", false, nil
		}
		only, _ := all[0].(map[string]interface{})
		if ref, ok = only["$ref"]; !ok || len(only) != 1 {
			return "", false, nil
		}
	}
	text, _ := ref.(string)
	const prefix = "#/components/schemas/"
	if !strings.HasPrefix(text, prefix) {
		return "", false, pathError(path, "reference %q is not to #/components/schemas/ of the document", text)
	}
	name := strings.NewReplacer("~1", "/", "~0", "~").Replace(strings.TrimPrefix(text, prefix))
	if _, ok := r.doc.schemas[name].(map[string]interface{}); !ok {
		return "", false, pathError(path, "reference to %s: the document has no such schema", name)
	}
	return name, true, nil
}

// untyped reads a schema without a type. The structural schema of a CRD
// has no node for "one of these types", so, as for client-go's schema, a
// choice between scalar types (IntOrString, Quantity) is int-or-string and
// anything else a node that keeps whatever it holds.
func (r *schemaReader) untyped(s map[string]interface{}, path decl.Path) (map[string]interface{}, error) {
	if all, ok := s["allOf"].([]interface{}); ok && len(all) > 0 {
		return nil, pathError(path, "allOf of %d schemas without a type: a structural schema cannot hold it", len(all))
	}
	for _, k := range []string{"properties", "items", "additionalProperties"} {
		if _, ok := s[k]; ok {
			return nil, pathError(path, "%s without a type: a structural schema cannot hold it", k)
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if choices, ok := s[k].([]interface{}); ok && scalarChoices(choices) {
			return map[string]interface{}{"x-kubernetes-int-or-string": true}, nil
		}
	}
	r.keepsAny(path, "of no type, which holds any JSON value")
	return anything(), nil
}

// scalarChoices reports whether every choice is a scalar type.
func scalarChoices(choices []interface{}) bool {
	for _, c := range choices {
		m, _ := c.(map[string]interface{})
		switch m["type"] {
		case "string", "integer", "number":
		default:
			return false
		}
	}
	return len(choices) > 0
}

func (r *schemaReader) object(s, out map[string]interface{}, path decl.Path) error {
	props, hasProps := s["properties"]
	additional, hasAdditional := s["additionalProperties"]
	if hasProps && hasAdditional {
		return pathError(path, "properties and additionalProperties together: a structural schema cannot hold both")
	}
	if hasProps {
		m, ok := props.(map[string]interface{})
		if !ok {
			return pathError(path, "properties are not a mapping")
		}
		converted := make(map[string]interface{}, len(m))
		for _, name := range slices.Sorted(maps.Keys(m)) {
			p, ok := m[name].(map[string]interface{})
			if !ok {
				return pathError(path.Child(decl.Step{Name: name}), "the schema is not a mapping")
			}
			node, err := r.node(p, path.Child(decl.Step{Name: name}))
			if err != nil {
				return err
			}
			converted[name] = node
		}
		out["properties"] = converted
		if req, ok := s["required"].([]interface{}); ok && len(req) > 0 {
			out["required"] = append([]interface{}(nil), req...)
		}
		return nil
	}
	switch a := additional.(type) {
	case map[string]interface{}:
		node, err := r.node(a, path.Child(decl.Step{Entries: true}))
		out["additionalProperties"] = node
		return err
	case nil:
		// An object of which the document says nothing more (RawExtension,
		// an embedded object of any kind) keeps whatever it holds.
		out["x-kubernetes-preserve-unknown-fields"] = true
		r.keepsAny(path, "an object the document names no field of")
	case bool:
		if a {
			out["x-kubernetes-preserve-unknown-fields"] = true
			r.keepsAny(path, "an object the document names no field of")
		}
	default:
		return pathError(path, "additionalProperties is neither a schema nor a boolean")
	}
	return nil
}

func (r *schemaReader) array(s, out map[string]interface{}, path decl.Path) error {
	items := map[string]interface{}{}
	switch i := s["items"].(type) {
	case map[string]interface{}:
		node, err := r.node(i, path.Child(decl.Step{Entries: true}))
		if err != nil {
			return err
		}
		items = node
	case nil:
		items = anything()
		r.keepsAny(path.Child(decl.Step{Entries: true}), "of no type, which holds any JSON value")
	default:
		return pathError(path, "items is not one schema")
	}
	out["items"] = items
	keys, _ := s["x-kubernetes-list-map-keys"].([]interface{})
	if out["x-kubernetes-list-type"] != "map" || len(keys) == 0 {
		return nil
	}
	// A CRD's list-map keys must be required or defaulted; the apiserver
	// sets every key of a built-in list it does not require, so stored
	// items hold them all (as client-go's schema is read in CRD).
	props, _ := items["properties"].(map[string]interface{})
	required, had := items["required"].([]interface{})
	listed := make(map[interface{}]bool, len(required))
	for _, name := range required {
		listed[name] = true
	}
	var added []interface{}
	for _, k := range keys {
		name, _ := k.(string)
		p, ok := props[name].(map[string]interface{})
		if !ok {
			return pathError(path, "list-map key %q is no property of the items", name)
		}
		if _, defaulted := p["default"]; !defaulted && !listed[name] {
			listed[name] = true
			added = append(added, name)
		}
	}
	if len(added) > 0 {
		items["required"] = append(required, added...)
		// The items were counted as they were read.
		r.made.required(added, had, path.Child(decl.Step{Entries: true}))
	}
	return nil
}

// allowed reports whether an enum, if any, holds the default. The
// apiserver's documents give a field of an enum type that is always
// serialized its Go zero value as default (autoscaling's MetricSpec.type
// is "", which no enum value is): a CRD refuses such a default, and the
// type's own validation refuses the value, so no stored object has it.
func allowed(d, enum interface{}) bool {
	values, ok := enum.([]interface{})
	if !ok {
		return true
	}
	for _, v := range values {
		if v == d {
			return true
		}
	}
	return false
}

// scalar reports whether a default is a scalar: object and list defaults
// of the document describe fields a server fills in, not the type.
func scalar(v interface{}) bool {
	switch v.(type) {
	case string, float64, int64, bool:
		return true
	}
	return false
}

// keepsAny records that the node at path keeps any value, and why
// (Resource.Opaque), and counts what the record holds in the expansion.
func (r *schemaReader) keepsAny(path decl.Path, why string) {
	at := path.String()
	r.opaque[at] = why
	r.made.bytes += len(at) + len(why)
}

// in names the schema being read, for messages, when it is not the
// kind's own: " (in schema NAME)".
func (r *schemaReader) in() string {
	if len(r.names) < 2 {
		return ""
	}
	return " (in schema " + r.names[len(r.names)-1] + ")"
}

// pathError is an error about the schema at path.
func pathError(path decl.Path, format string, args ...interface{}) error {
	return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
}
