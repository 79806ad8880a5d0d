// Package verify is the reference checker of mut2cel: it decides updates of a
// custom resource directly from docs/semantics.md, without CEL and without
// the translator's analysis, so that one misreading of the semantics cannot
// hide in both. The package will also hold the differential verifier that
// compares the translator's CEL rules, run by the apiserver's validator,
// with this checker.
//
// Inputs and outputs:
//
//   - NewChecker takes the raw openAPIV3Schema of one CRD version as decoded
//     from JSON or YAML (map[string]interface{}), because the typed
//     apiextensions structs drop the two extensions. It returns every invalid
//     declaration (semantics.md 1.1) as one aggregate of field errors, sorted,
//     with apiserver-style schema paths.
//   - Check takes the old and the new object in stored form (pruned,
//     defaulted, numbers as JSON decoding yields them) and returns the
//     violations, sorted by Path, Kind, Declaration and Detail.
//
// Invariants:
//
//   - Check(x, x) is empty for every x.
//   - The result never depends on Go map iteration order: properties and map
//     keys are walked sorted, list items in list order.
//   - Check never panics on objects that do not match the schema: a value of
//     the wrong type is a position that does not resolve, a collection of the
//     wrong type has no keys. Duplicate keys in list-maps and sets, which
//     validation rejects, pair old and new items in order of occurrence.
//   - Only junctor-free schema nodes describe fields: allOf, anyOf, oneOf and
//     not are read only to reject declarations inside them.
package verify
