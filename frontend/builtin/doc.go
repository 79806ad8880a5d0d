// Package builtin is the front end for built-in Kubernetes types: it reads
// the schema of a kind from the structured-merge-diff schema that client-go
// ships for server-side apply (the release this program is built with) and
// writes it as a CustomResourceDefinition document, the vehicle through
// which the compiler reads declarations for the type as for a CRD.
//
// Input: a kind, GROUP/VERSION/KIND (VERSION/KIND in the core group), that
// client-go's scheme knows.
//
// Output: a CRD document with one served version whose schema has the
// kind's structure: every field, list types (atomic, set, map with its
// keys) and map types, as the apiserver's server-side apply reads them;
// and the resource's names (plural, Name: <plural>.<group>).
//
// Invariants:
//   - List types and list-map keys come from client-go's schema, never
//     from a guess; the plural is the apiserver's lowercased plural of the
//     kind (meta.UnsafeGuessKindToResource), which is how the built-in
//     kinds are served.
//   - The schema says nothing about values beyond their JSON type
//     (numbers are type: number, untyped scalars int-or-string): a policy
//     sees the stored JSON, and what it compares needs no more. List-map
//     keys are required, as the apiserver defaults those it does not
//     require. A recursive type, or one several atoms describe
//     (RawExtension), is a node that keeps unknown fields.
//   - The document's group and name are a vehicle's
//     (<group>.builtin.mut2cel.io), since CRD validation wants a dotted
//     group; back ends write Resource.GVK and Resource.Name instead.
//   - The package imports client-go and Kubernetes' API machinery only.
package builtin
