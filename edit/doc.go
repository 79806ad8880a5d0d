// Package edit is the one way mut2cel changes a decoded CRD document.
//
// In: a document decoded from YAML or JSON (map[string]interface{}, with
// []interface{} lists), and a list of Edits produced by translate.
// Out: the edited copy (Apply), or an *Error naming the edit that cannot
// be applied.
//
// Invariants:
//   - translate computes its output with Apply, and manifest
//     checks that the text it writes decodes to what Apply gives: the
//     meaning of an edit is defined once, here.
//   - An edit that does not fit the document (a missing node, a key that
//     is not there to remove, a rule that is not there to delete) is an
//     error, never skipped: a skipped edit would be a declaration left in
//     the schema or a rule silently kept.
//   - The input document is never modified.
//   - Paths are printed one way (Render), as the apiserver prints field
//     paths, and addressed in JSON patches one way (Pointer).
//
// The package depends on the standard library and internal/diag
// (whose path rendering it shares) only, so that every phase can use it.
package edit
