// Package crd is the one reader of a decoded CustomResourceDefinition
// document: every other package asks it for the CRD's name, its versions
// and their schemas instead of indexing the document itself (issue 23,
// "a CRD model read once").
//
// Input: a CRD document as decoded from YAML or JSON
// (map[string]interface{}). Output: a *CRD with the CRD's name, group,
// kind, plural, scope and conversion strategy, and its versions in
// spec.versions order, each with its index, name, served and storage flags, the
// decoded openAPIV3Schema, the document path of that schema, and, on
// demand, the apiserver's typed and structural forms of it; mut2cel's
// annotations as read (Own: the declarations annotation, the record
// of generated rules, the target Kubernetes version the rules were made
// for, and those that do not read); the raw access the
// other packages need (NodeAt, Walk, Mapping, Typed). A Location (version
// name and decl.Path) names a schema node the short way
// ("version v1, .spec.a"); the model resolves it to its document path
// (Node) and renders that as the apiserver does (Where).
//
// Invariants:
//   - Read never changes the document, and the model shares the decoded
//     schemas with it: a caller that edits the document reads it again.
//   - Read fails only on a missing document; a field of the wrong type
//     reads as absent, as the readers it replaces did, and leaves it to
//     the apiserver's CRD validation to say so.
//   - Versions keep the document's order and its duplicates (a reader
//     that needs one version of a name takes the first).
//   - SchemaRoot is the only spelling of
//     spec.versions[i].schema.openAPIV3Schema, as a document path, and
//     VersionField and SchemaField as the apiserver's field paths; Split
//     and VersionOfField are their inverses. Paths are rendered by edit
//     (Render, Pointer), never here by hand.
//   - No other package defines its own way into the document or decodes
//     a whole CRD (readers_test.go checks it); the annotations are read with decl's
//     codec, and one that does not read is reported, never fatal.
//   - A version's schema is converted at most once, by internal/kube as
//     the apiserver converts it; a conversion error is a *SchemaError
//     naming the version and the document path of its schema.
package crd
