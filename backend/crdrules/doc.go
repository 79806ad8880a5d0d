// Package crdrules is the CRD back end: it says the checks of a plan as
// x-kubernetes-validations rules of the CRD itself, over the apiserver's
// schema-typed CEL values (self and oldSelf at each rule's host), adds
// the bounds the rules need to fit the CEL cost limits, checks the result
// as the target apiserver would, and writes it into the CRD document: the
// rules on their hosts, the bounds as schema keywords, and the
// declarations written in the schemas taken out, since the apiserver
// would drop or refuse those keys.
//
// Input: a plan (plan.Plan), the model of the CRD document it was
// compiled from (crd.CRD), whose schemas resolve the plan's
// schema-relative paths, and Options (bounds, validation).
//
// Output: Write returns an Output: per version the rules written
// (VersionRules, each rule with the declarations it stands for and the
// apiserver's estimate of its cost), the bounds added, the edit.Edits
// that turn the document into its translation and the translated
// document, or every problem found. Rules says one version's checks alone.
//
// The CEL: a few builders, one per shape of rule, each showing the CEL it
// writes and why it is exact and cheap (cel.go, equal.go, keys.go,
// pairs.go, value.go, union.go); where the apiserver's CEL values differ
// from the stored JSON (values.go: formats, escaping, embedded metadata)
// a check has no exact rule and its declaration is refused with every
// reason (reasons.go). bounds.go asks costest for the bounds and the
// costs; validate.go compiles every rule in the target's environment and
// runs the apiserver's CRD validation.
//
// The rewrite (docs/rewrite.md): the rules an earlier run generated,
// found by the record the model read (FindOwned), are set aside before
// the rules are written; Write nets the new edits against them, so that
// owned rules generated again stay in place, and writes the mut2cel.io
// annotations (the target among them when plan.Plan.RecordKubeVersion is
// set); Declared writes every declaration back into the schema, as its
// author would have.
//
// Invariants:
//   - A rule means exactly what its check means (docs/semantics.md); a
//     check without an exact rule for the target refuses its
//     declaration, never a weaker or stronger rule.
//   - Rules with the same text on one node are one rule standing for
//     every declaration that needs it (the apiserver keys a node's rules
//     by text); a rule the CRD already holds is not added again.
//   - Every rule compiles in the CEL environment the target Kubernetes
//     version uses for new CRD rules, and the output CRD passes the
//     apiserver's CRD validation.
//   - Versions in the plan's order, then one edit per node in the order
//     of plan.Less, its declarations removed in the order of
//     decl.Extensions and its rules appended in order; then each bound,
//     set on the edit of its node or as a new edit after the others. The
//     output of one plan is always the same.
//   - Only declarations written in the schema (decl.InSchema) are
//     removed: the others were never there.
//   - A path of the plan that the CRD's schema lacks is an error, never
//     skipped: the plan was compiled from another document.
//   - An owned rule is one the record lists, found unedited at the
//     recorded node, else on exactly one node of its version, else, the
//     version being gone, of a version the record does not name; each
//     is owned once. Any other entry is the user's and is never removed;
//     a listed fingerprint that leads to no entry or to several is a
//     warning.
//   - Each annotation is written only when its content changes, so that
//     a hand-formatted one stays; without declarations both go.
//   - The package reads the plan and the CRD model; it does not import
//     the compiler.
package crdrules
