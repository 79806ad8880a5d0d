package verify

import (
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/verify/pairgen"
)

// resourceMeta is what the apiserver puts at the root of every custom
// resource before validation or any rule sees it: apiVersion, kind and
// metadata with a name, and a namespace for a namespaced CRD. The
// generator's objects carry none of it (pairgen.Generator.Next); a schema that
// requires metadata, or reads it in a rule, judges the pair as the
// apiserver would only once it is there.
type resourceMeta struct {
	apiVersion, kind string
	name, namespace  string
}

// resourceMetaOf reads the resource's identity from the CRD document of
// version. The name fits a pattern or length bounds the schema puts on
// metadata.name, where it can.
func resourceMetaOf(c *crd.CRD, version string, s *schema.Structural) resourceMeta {
	m := resourceMeta{apiVersion: version, name: "example", kind: c.Kind}
	if c.Group != "" {
		m.apiVersion = c.Group + "/" + version
	}
	if c.Scope != "Cluster" {
		m.namespace = "default"
	}
	if vv := metadataNameSchema(s); vv != nil {
		m.name = pairgen.ObjectName(vv, m.name)
	}
	return m
}

// metadataNameSchema is the value validation of the root's
// metadata.name, nil when the schema puts none there.
func metadataNameSchema(s *schema.Structural) *schema.ValueValidation {
	meta, ok := s.Properties["metadata"]
	if !ok {
		return nil
	}
	name, ok := meta.Properties["name"]
	if !ok {
		return nil
	}
	return name.ValueValidation
}

// set puts the resource's apiVersion, kind and metadata on a stored
// object, in place.
func (m resourceMeta) set(obj map[string]interface{}) {
	meta := map[string]interface{}{"name": m.name}
	if m.namespace != "" {
		meta["namespace"] = m.namespace
	}
	obj["apiVersion"], obj["metadata"] = m.apiVersion, meta
	if m.kind != "" {
		obj["kind"] = m.kind
	}
}

// Refusal is why the apiserver refuses a pair whatever its rules say: an
// object of it that it would not store, and its first reason. Such a pair
// is set aside: it tests no rule.
type Refusal struct {
	// Object is "old" (it could not have been created) or "new" (the
	// update fails validation before any transition rule matters).
	Object string
	// Reason is the refusal in one line with the schema path in place
	// of the field's (indices and keys as [*]): refusals with one
	// Reason are one gap of the generator.
	Reason string
	// Message is the apiserver's message for the first such pair.
	Message string
	// field is the apiserver's path of the refused field.
	field string
}

// refusalOf words the first error of a refused object.
func refusalOf(object string, err *field.Error) *Refusal {
	return &Refusal{
		Object:  object,
		Reason:  object + " object: " + schemaPathOfField(err.Field) + ": " + err.Type.String(),
		Message: err.Error(),
		field:   err.Field,
	}
}

// schemaPathOfField turns a field path of an apiserver error
// (spec.ports[2].name, metadata.labels[a]) into the schema path of its
// node in the notation of every message (.spec.ports[*].name).
func schemaPathOfField(f string) string {
	var b strings.Builder
	depth := 0
	for _, r := range f {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[*]")
			}
			depth++
		case r == ']':
			depth--
		case depth > 0:
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || s == "<nil>" {
		return "."
	}
	if !strings.HasPrefix(s, ".") {
		s = "." + s
	}
	return s
}
