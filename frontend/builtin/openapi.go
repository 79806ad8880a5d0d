package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/limits"
)

// OpenAPI is an OpenAPI v3 document as an apiserver serves it for one
// group version (/openapi/v3/apis/GROUP/VERSION, /openapi/v3/api/v1 for
// the core group): the schemas of its kinds, built-in or custom, and the
// paths that serve them, for the release the cluster runs.
type OpenAPI struct {
	// Name says where the document came from, for messages.
	Name    string
	schemas map[string]interface{}
	paths   map[string]interface{}
	// opaque holds, per kind read, the paths of its nodes that keep any
	// value, with the reason.
	opaque map[schema.GroupVersionKind]map[string]string
	// made is what the kinds read so far have expanded to, held to the
	// limits of what one run reads.
	made expansion
}

// ReadOpenAPI reads a document in JSON, as the apiserver serves it, or
// YAML.
func ReadOpenAPI(name string, data []byte) (*OpenAPI, error) {
	var doc map[string]interface{}
	var err error
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		err = json.Unmarshal(data, &doc)
	} else {
		err = yaml.Unmarshal(data, &doc)
	}
	if err != nil {
		return nil, parseError(name, data, err)
	}
	if v, _ := doc["openapi"].(string); !strings.HasPrefix(v, "3.") {
		return nil, fmt.Errorf("%s: not an OpenAPI v3 document (openapi: %v); the apiserver serves one per group version at /openapi/v3/apis/GROUP/VERSION", name, doc["openapi"])
	}
	components, _ := doc["components"].(map[string]interface{})
	schemas, _ := components["schemas"].(map[string]interface{})
	paths, _ := doc["paths"].(map[string]interface{})
	return &OpenAPI{Name: name, schemas: schemas, paths: paths, opaque: map[schema.GroupVersionKind]map[string]string{}}, nil
}

// parseError is the error of a document that does not parse, at its line
// where the parser says, and naming the limit where it is one: the JSON
// and YAML parsers stop at limits.Nesting levels, which the apiserver's
// documents come nowhere near and 5,000 nested allOf pass.
func parseError(name string, data []byte, err error) error {
	at := name
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) && syntax.Offset > 0 && syntax.Offset <= int64(len(data)) {
		at = fmt.Sprintf("%s:%d", name, 1+bytes.Count(data[:syntax.Offset-1], []byte("\n")))
	}
	if strings.Contains(err.Error(), "exceeded max depth") {
		return fmt.Errorf("%s: nested deeper than %s levels, the most mut2cel reads (docs/limits.md)", at, thousands(limits.Nesting))
	}
	return fmt.Errorf("%s: not an OpenAPI document: %v", at, err)
}

// Kinds lists the kinds whose schema the document holds.
func (o *OpenAPI) Kinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, name := range slices.Sorted(maps.Keys(o.schemas)) {
		s, _ := o.schemas[name].(map[string]interface{})
		out = append(out, gvks(s["x-kubernetes-group-version-kind"])...)
	}
	return out
}

// Resource finds the kind in the document: the schema that names it in
// x-kubernetes-group-version-kind, and the resource that serves it, read
// from the paths whose operations name the kind: its plural, its scope (a
// path under namespaces/{namespace}) and whether it has a status
// subresource.
func (o *OpenAPI) Resource(gvk schema.GroupVersionKind) (Resource, error) {
	if _, err := o.kindSchema(gvk); err != nil {
		return Resource{}, err
	}
	plurals := map[string]bool{}
	r := Resource{GVK: gvk, OpenAPI: o, ClusterScoped: true}
	for _, p := range slices.Sorted(maps.Keys(o.paths)) {
		ops, _ := o.paths[p].(map[string]interface{})
		if !servesKind(ops, gvk) {
			continue
		}
		plural, namespaced, sub, ok := resourcePath(p, gvk.GroupVersion())
		if !ok {
			continue
		}
		switch sub {
		case "":
			plurals[plural] = true
			if namespaced {
				r.ClusterScoped = false
			}
		case "status":
			r.Status = true
		}
	}
	switch len(plurals) {
	case 0:
		return Resource{}, fmt.Errorf("%s: no path serves %s: its plural and scope are unknown", o.Name, gvk)
	case 1:
		for p := range plurals {
			r.Plural = p
		}
		return r, nil
	}
	return Resource{}, fmt.Errorf("%s: paths serve %s as several resources: %s", o.Name, gvk, strings.Join(slices.Sorted(maps.Keys(toMap(plurals))), ", "))
}

// kindSchema returns the name of the schema of the kind.
func (o *OpenAPI) kindSchema(gvk schema.GroupVersionKind) (string, error) {
	var found []string
	for _, name := range slices.Sorted(maps.Keys(o.schemas)) {
		s, _ := o.schemas[name].(map[string]interface{})
		for _, k := range gvks(s["x-kubernetes-group-version-kind"]) {
			if k == gvk {
				found = append(found, name)
			}
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%s: no schema of the document is of kind %s", o.Name, gvk)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: several schemas are of kind %s: %s", o.Name, gvk, strings.Join(found, ", "))
}

// crd reads the kind's schema as a CRD document, as CRD does.
func (o *OpenAPI) crd(r Resource) (map[string]interface{}, error) {
	name, err := o.kindSchema(r.GVK)
	if err != nil {
		return nil, err
	}
	reader := o.reader(name)
	root, err := reader.node(o.schemas[name].(map[string]interface{}), nil)
	o.made.kinds++
	o.opaque[r.GVK] = reader.opaque
	if err != nil {
		return nil, fmt.Errorf("%s: schema %s of %s: %w", o.Name, name, r.GVK, err)
	}
	if root["type"] != "object" {
		return nil, fmt.Errorf("%s: schema %s of %s: %s: the root is not an object", o.Name, name, r.GVK, decl.Path(nil))
	}
	return vehicle(r, root, r.Status), nil
}

// gvks reads an x-kubernetes-group-version-kind: one or a list.
func gvks(v interface{}) []schema.GroupVersionKind {
	list, ok := v.([]interface{})
	if !ok {
		list = []interface{}{v}
	}
	var out []schema.GroupVersionKind
	for _, e := range list {
		m, ok := e.(map[string]interface{})
		if !ok {
			continue
		}
		g, _ := m["group"].(string)
		ver, _ := m["version"].(string)
		k, _ := m["kind"].(string)
		out = append(out, schema.GroupVersionKind{Group: g, Version: ver, Kind: k})
	}
	return out
}

// servesKind reports whether an operation of a path names the kind.
func servesKind(ops map[string]interface{}, gvk schema.GroupVersionKind) bool {
	for _, method := range []string{"get", "put", "post", "patch", "delete"} {
		op, _ := ops[method].(map[string]interface{})
		for _, k := range gvks(op["x-kubernetes-group-version-kind"]) {
			if k == gvk {
				return true
			}
		}
	}
	return false
}

// resourcePath reads a path of the group version: /apis/G/V/[namespaces/
// {namespace}/]PLURAL[/{name}[/SUBRESOURCE]]. Watch paths and paths of
// other group versions are not resource paths.
func resourcePath(p string, gv schema.GroupVersion) (plural string, namespaced bool, sub string, ok bool) {
	prefix := "/apis/" + gv.Group + "/" + gv.Version + "/"
	if gv.Group == "" {
		prefix = "/api/" + gv.Version + "/"
	}
	if !strings.HasPrefix(p, prefix) {
		return "", false, "", false
	}
	segs := strings.Split(strings.TrimPrefix(p, prefix), "/")
	if len(segs) >= 3 && segs[0] == "namespaces" && segs[1] == "{namespace}" {
		segs, namespaced = segs[2:], true
	}
	switch {
	case len(segs) == 0 || segs[0] == "watch" || strings.HasPrefix(segs[0], "{"):
		return "", false, "", false
	case len(segs) <= 2:
		return segs[0], namespaced, "", true
	case len(segs) == 3 && segs[1] == "{name}":
		return segs[0], namespaced, segs[2], true
	}
	return "", false, "", false
}

func toMap(set map[string]bool) map[string]interface{} {
	out := make(map[string]interface{}, len(set))
	for k := range set {
		out[k] = true
	}
	return out
}

// Opaque says whether a node above p keeps any value because the document
// says no more of it (a value of no type, an object it names no field of,
// a type cut where it recurs): the structural schema has no node below
// it, and nothing can be declared there. It returns that node and why.
// It knows the kinds CRD has read from a document, and no other.
func (r Resource) Opaque(p decl.Path) (decl.Path, string, bool) {
	if r.OpenAPI == nil {
		return nil, "", false
	}
	cuts := r.OpenAPI.opaque[r.GVK]
	for i := 0; i < len(p); i++ {
		if why, ok := cuts[p[:i].String()]; ok {
			return p[:i], why, true
		}
	}
	return nil, "", false
}
