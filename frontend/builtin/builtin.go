package builtin

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/mut2cel/mut2cel/crd"
)

// Resource names a built-in resource by its kind: "apps/v1/Deployment",
// or "v1/Service" for the core group.
type Resource struct {
	GVK schema.GroupVersionKind
	// Plural is the resource name the apiserver serves the kind as.
	Plural string
	// ClusterScoped is true for a kind not served in namespaces; Status
	// for one served with a status subresource. Both are read from an
	// OpenAPI document's paths; from client-go's schema a kind is taken
	// as namespaced, with a status subresource where it has a status.
	ClusterScoped, Status bool
	// OpenAPI is the document the kind's schema is read from (Resource
	// of OpenAPI); nil reads client-go's schema.
	OpenAPI *OpenAPI
}

// ParseResource reads GROUP/VERSION/KIND, or VERSION/KIND for the core
// group.
func ParseResource(s string) (Resource, error) {
	gvk, err := ParseKind(s)
	if err != nil {
		return Resource{}, err
	}
	if !knownKind(gvk) {
		return Resource{}, fmt.Errorf("%q: no built-in kind of this Kubernetes release (client-go %s) is %s", s, clientGoRelease, gvk)
	}
	// The kind's resource name is the apiserver's own lowercased plural;
	// the REST mapping of a discovery-less client makes it the same way.
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return Resource{GVK: gvk, Plural: plural.Resource}, nil
}

// ParseKind reads GROUP/VERSION/KIND, or VERSION/KIND for the core
// group, without looking the kind up.
func ParseKind(s string) (schema.GroupVersionKind, error) {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			parts = nil
		}
	}
	switch len(parts) {
	case 2:
		return schema.GroupVersionKind{Version: parts[0], Kind: parts[1]}, nil
	case 3:
		return schema.GroupVersionKind{Group: parts[0], Version: parts[1], Kind: parts[2]}, nil
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%q: want GROUP/VERSION/KIND, as apps/v1/Deployment, or VERSION/KIND for the core group, as v1/Service", s)
}

// clientGoRelease is the release whose types and schemas this package
// reads.
const clientGoRelease = "v0.37"

// Name is the resource's name in the form of a CRD's:
// <plural>.<group>, or <plural> in the core group. Declarations files name
// the resource by it.
func (r Resource) Name() string {
	if r.GVK.Group == "" {
		return r.Plural
	}
	return r.Plural + "." + r.GVK.Group
}

// VehicleGroup is the group of the CRD document that carries a built-in
// type to the compiler: the apiserver's validation of CRDs, which the
// compiler applies, wants a group with a dot, which no built-in group but
// a few has, and a name <plural>.<group>. A back end writes the real group
// (Resource.GVK) and name (Resource.Name) into what it makes.
func (r Resource) VehicleGroup() string {
	g := r.GVK.Group
	if g == "" {
		g = "core"
	}
	return g + vehicleSuffix
}

// VehicleName is the name of the carrying CRD document.
func (r Resource) VehicleName() string { return r.Plural + "." + r.VehicleGroup() }

// vehicleSuffix ends the group of every carrying CRD document.
const vehicleSuffix = ".builtin.mut2cel.io"

// OfVehicle returns the built-in resource and kind whose carrying CRD
// document (VehicleGroup) serves gvr and gvk, and false for any other
// CRD's: a judge of policies sends the requests a cluster sends for the
// kind itself.
func OfVehicle(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind) (schema.GroupVersionResource, schema.GroupVersionKind, bool) {
	group, ok := strings.CutSuffix(gvr.Group, vehicleSuffix)
	if !ok || gvk.Group != gvr.Group {
		return gvr, gvk, false
	}
	if group == "core" {
		group = ""
	}
	gvr.Group, gvk.Group = group, group
	return gvr, gvk, true
}

// CRD returns a CustomResourceDefinition document with one version that
// describes r. With r.OpenAPI, it describes the kind as the document
// does (openapi.go): types, fields, list and map types, formats, enums,
// bounds and scalar defaults. Otherwise it describes the kind as
// client-go's schema for server-side apply does: the
// structure of every field, list types and list-map keys, map types. It
// lets the compiler read declarations for a built-in type as for a CRD.
// It describes no validation of values (formats, enums, bounds,
// required fields other than list-map keys), which a policy, seeing the
// stored JSON, does not need; the root's metadata is an object without
// properties, as in a CRD.
func CRD(r Resource) (map[string]interface{}, error) {
	if r.OpenAPI != nil {
		return r.OpenAPI.crd(r)
	}
	t, err := clientGoType(r.GVK)
	if err != nil {
		return nil, err
	}
	c := &converter{s: t.Schema, stack: map[string]bool{}}
	root := c.convert(t.TypeRef)
	props, _ := root["properties"].(map[string]interface{})
	// Built-in kinds with a status serve it as a subresource.
	_, status := props["status"]
	return vehicle(r, root, status), nil
}

// vehicle writes the CRD document of r with the schema root: the root's
// metadata an object without properties, as in a CRD.
func vehicle(r Resource, root map[string]interface{}, status bool) map[string]interface{} {
	if props, ok := root["properties"].(map[string]interface{}); ok {
		props["metadata"] = map[string]interface{}{"type": "object"}
	}
	scope := "Namespaced"
	if r.ClusterScoped {
		scope = "Cluster"
	}
	return crd.NewDocument(crd.Names{Name: r.VehicleName(), Group: r.VehicleGroup(), Kind: r.GVK.Kind, Plural: r.Plural, Scope: scope},
		crd.NewVersion{Name: r.GVK.Version, Served: true, Storage: true, Schema: root, StatusSubresource: status})
}

// converter writes structured-merge-diff types as OpenAPI schemas.
type converter struct {
	s *smdschema.Schema
	// stack holds the named types being converted, to cut recursion.
	stack map[string]bool
}

func (c *converter) convert(tr smdschema.TypeRef) map[string]interface{} {
	if tr.NamedType != nil {
		if c.stack[*tr.NamedType] {
			return anything()
		}
		c.stack[*tr.NamedType] = true
		defer delete(c.stack, *tr.NamedType)
	}
	atom, ok := c.s.Resolve(tr)
	if !ok {
		return anything()
	}
	out := c.atom(atom, tr.ElementRelationship)
	if tr.Nullable {
		out["nullable"] = true
	}
	return out
}

// anything is a node that holds any JSON value: a type several atoms
// describe at once (RawExtension), or a recursive one.
func anything() map[string]interface{} {
	return map[string]interface{}{"x-kubernetes-preserve-unknown-fields": true}
}

// atom converts a resolved type: a scalar, a list or a map; a type
// several describe at once holds anything. rel, where the reference sets
// it, overrides the type's own element relationship.
func (c *converter) atom(a smdschema.Atom, rel *smdschema.ElementRelationship) map[string]interface{} {
	members := 0
	for _, set := range []bool{a.Scalar != nil, a.List != nil, a.Map != nil} {
		if set {
			members++
		}
	}
	switch {
	case members != 1:
		return anything()
	case a.Scalar != nil:
		return scalarSchema(*a.Scalar)
	case a.List != nil:
		return c.list(a.List, relationOf(a.List.ElementRelationship, rel))
	}
	return c.object(a.Map, relationOf(a.Map.ElementRelationship, rel))
}

// relationOf is a type's element relationship, or the one its reference
// sets.
func relationOf(own smdschema.ElementRelationship, rel *smdschema.ElementRelationship) smdschema.ElementRelationship {
	if rel != nil {
		return *rel
	}
	return own
}

// scalarSchema is the schema of a scalar type.
func scalarSchema(s smdschema.Scalar) map[string]interface{} {
	switch s {
	case smdschema.Numeric:
		return map[string]interface{}{"type": "number"}
	case smdschema.String:
		return map[string]interface{}{"type": "string"}
	case smdschema.Boolean:
		return map[string]interface{}{"type": "boolean"}
	}
	// Untyped scalars are int-or-string (IntOrString, Quantity).
	return map[string]interface{}{"x-kubernetes-int-or-string": true}
}

// list converts a list with its list type: a map by its keys, a set, or
// atomic.
func (c *converter) list(l *smdschema.List, relation smdschema.ElementRelationship) map[string]interface{} {
	items := c.convert(l.ElementType)
	out := map[string]interface{}{"type": "array", "items": items}
	switch {
	case relation == smdschema.Associative && len(l.Keys) > 0:
		out["x-kubernetes-list-type"] = "map"
		keys := make([]interface{}, len(l.Keys))
		for i, k := range l.Keys {
			keys[i] = k
		}
		out["x-kubernetes-list-map-keys"] = keys
		// The apiserver defaults every key it does not require, so
		// stored items hold them all.
		items["required"] = append([]interface{}(nil), keys...)
	case relation == smdschema.Associative:
		out["x-kubernetes-list-type"] = "set"
	default:
		out["x-kubernetes-list-type"] = "atomic"
	}
	return out
}

// object converts a map: a struct with its properties, a map of values
// of one type, or an object that holds anything.
func (c *converter) object(m *smdschema.Map, relation smdschema.ElementRelationship) map[string]interface{} {
	out := map[string]interface{}{"type": "object"}
	if relation == smdschema.Atomic {
		out["x-kubernetes-map-type"] = "atomic"
	}
	switch {
	case len(m.Fields) > 0:
		props := map[string]interface{}{}
		for _, f := range m.Fields {
			props[f.Name] = c.convert(f.Type)
		}
		out["properties"] = props
	case m.ElementType.NamedType != nil || m.ElementType.Inlined != (smdschema.Atom{}):
		out["additionalProperties"] = c.convert(m.ElementType)
	default:
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
	return out
}
