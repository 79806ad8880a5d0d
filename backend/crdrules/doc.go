// Package crdrules is the back end that writes a plan into the CRD
// itself: the rules as x-kubernetes-validations of their hosts, the
// bounds as schema keywords, and the declarations written in the schemas
// taken out, since the apiserver would drop or refuse those keys.
//
// Input: a plan (plan.Plan) and the model of the CRD document it was
// compiled from (crd.CRD), whose schemas resolve the plan's
// schema-relative paths to document paths.
//
// Output: edit.Edits that, applied to that document, give its
// translation before the compiler's bookkeeping: translate nets them
// against the rules an earlier run generated and adds the
// mut2cel.io annotations (docs/rewrite.md).
//
// Invariants:
//   - Versions in the plan's order, then one edit per node in the order
//     of plan.Less, its declarations removed in the order of
//     decl.Extensions and its rules appended in the plan's order; then
//     each bound, set on the edit of its node or as a new edit after the
//     others. The edits of one plan are always the same.
//   - Only declarations written in the schema (decl.InSchema) are
//     removed: the others were never there.
//   - A path of the plan that the CRD's schema lacks is an error, never
//     skipped: the plan was compiled from another document.
//   - The package reads the plan and the CRD model only; it does not
//     import the compiler.
package crdrules
