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
// translation (Edits for the plan alone). The package also owns the
// rewrite of docs/rewrite.md: the rules an earlier run generated, found
// by the record the model read (FindOwned), set aside before compiling
// (Owned.SetAside, InlineRemovals for the CRD before any declaration);
// Write nets the plan's edits against them, so that owned rules
// generated again stay in place, and writes the mut2cel.io annotations
// (the target among them when plan.Plan.RecordKubeVersion is set),
// returning the edits, the translated document and the new record;
// Declared writes every declaration back into the schema, as its author
// would have.
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
//   - An owned rule is one the record lists, found unedited at the
//     recorded node, else on exactly one node of its version, else, the
//     version being gone, of a version the record does not name; each
//     is owned once. Any other entry is the user's and is never removed;
//     a listed fingerprint that leads to no entry or to several is
//     reported (Owned.Lost) for the caller to word.
//   - Each annotation is written only when its content changes, so that
//     a hand-formatted one stays; without declarations both go.
//   - The package reads the plan and the CRD model only; it does not
//     import the compiler.
package crdrules
