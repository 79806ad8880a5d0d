// Package schemapath holds the paths of verify's packages from the root
// of a schema to one of its nodes: a step per property, list items or map
// values, printed in the one notation of every message, the annotation
// and the declarations files (decl.Path, .spec.ports[*]). The reference
// checker names its declared nodes with them, the pair generator aims
// along them, and the runner finds the rules under test by them.
//
// In: steps, or a structural schema. Out: paths, their text, the node a
// path leads to in a structural schema, and the nodes that hold
// x-kubernetes-validations rules with the fields the rules name
// (RuleTargets).
//
// Invariants:
//
//   - A path keeps items apart from map values; its text does not (both
//     are [*]), as a schema node is a list or a map, never both.
//   - Child never shares the array of the path it extends.
//   - RuleTargets walks properties in sorted order: the same schema gives
//     the same paths in the same order.
package schemapath
