// Package builtin is the front end for built-in Kubernetes types, and for
// kinds as a cluster serves them: it reads the schema of a kind from the
// structured-merge-diff schema that client-go ships for server-side apply
// (the release this program is built with), or from an OpenAPI v3
// document an apiserver serves for a group version (openapi.go; the
// cluster's own release, and the CRDs it serves), and writes it as a
// CustomResourceDefinition document, the vehicle through which the
// compiler reads declarations for the type as for a CRD.
//
// Input: a kind, GROUP/VERSION/KIND (VERSION/KIND in the core group), that
// client-go's scheme knows; or an OpenAPI v3 document
// (/openapi/v3/apis/GROUP/VERSION) and a kind one of its schemas names in
// x-kubernetes-group-version-kind.
//
// Output: a CRD document with one served version whose schema has the
// kind's structure: every field, list types (atomic, set, map with its
// keys) and map types, as the apiserver's server-side apply reads them;
// and the resource's names (plural, Name: <plural>.<group>), scope and
// status subresource.
//
// Invariants:
//   - List types and list-map keys come from the source's schema, never
//     from a guess. From client-go, the plural is the apiserver's
//     lowercased plural of the kind (meta.UnsafeGuessKindToResource),
//     which is how the built-in kinds are served, and the kind is
//     namespaced. From a document, the plural, the scope and the status
//     subresource are read from the paths whose operations name the kind;
//     a kind no path serves, or several resources serve, is an error.
//   - From client-go, the schema says nothing about values beyond their
//     JSON type (numbers are type: number, untyped scalars int-or-string):
//     a policy sees the stored JSON, and what it compares needs no more.
//     From a document, it keeps what the document says of values and a
//     structural schema holds the same way: formats, enums, bounds,
//     nullable and scalar defaults; not patterns, descriptions, rules
//     (x-kubernetes-validations) or value validations in allOf, anyOf,
//     oneOf and not.
//   - References ($ref, and the allOf wrapper of one $ref the apiserver
//     writes for a field of a named type) are resolved; what sits beside
//     them describes the field, not the type, and is not read.
//   - What the references of a document expand to, over every kind read
//     from it, is held to the limits of a run (internal/limits: values,
//     bytes, nesting), counted as the CRD documents of the kinds hold it
//     once written as YAML and never below; past one, reading stops with
//     an error naming the document, the kind's schema, the path and the
//     schema being read there.
//   - List-map keys are required unless defaulted, as the apiserver
//     defaults those it does not require. A recursive type is cut where it
//     recurs: a reference to a schema being resolved on the way from the
//     root, as the apiserver's resolver (k8s.io/apiserver/pkg/cel/openapi/
//     resolver.PopulateRefs) cuts it. A type the structural schema
//     cannot hold is read as client-go's schema is: a choice between
//     scalar types (IntOrString, Quantity) is int-or-string, and an
//     untyped value (RawExtension, an object the schema says nothing more
//     of) a node that keeps unknown fields. The root's metadata is an object without properties, as in
//     a CRD; Resource.Opaque says which nodes of a kind read from a
//     document keep any value, and why, for the declarations below them.
//     What cannot be read (a reference to no schema, allOf of
//     several schemas without a type, properties beside
//     additionalProperties, a list-map key that is no property) is an
//     error naming the document and the schema path.
//   - The document's group and name are a vehicle's
//     (<group>.builtin.mut2cel.io), since CRD validation wants a dotted
//     group; back ends write Resource.GVK and Resource.Name instead.
//   - The output is deterministic: properties are read in sorted order.
//   - The package imports client-go, Kubernetes' API machinery, the
//     model's decl (schema paths) and crd, and internal/limits only.
package builtin
