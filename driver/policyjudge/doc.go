// Package policyjudge evaluates the admission policies of backend/policy,
// or hand-written ones, in this process with the apiserver's own
// admission-policy code (internal/admit): the judges of verify --policy,
// --against-policy and --normalize without --server.
//
// Input: the validating policies of a CRD (or of a built-in kind's
// carrying CRD, judged as the kind itself), or one normalizing policy and
// the declared CRD.
//
// Output: a verify.Judge per version (PolicyJudge), deciding updates as a
// cluster enforcing the policies decides them after the CRD's own rules;
// a verifyrun.Normalization (Normalizer), the object a normalizing policy
// leaves of a create or an update. InProcess gives both to verifyrun.
//
// Invariants:
//
//   - Policies are compiled and evaluated by the apiserver's code, with
//     the runtime cost budget of a real apiserver; a validation that fails
//     to evaluate denies, as failurePolicy Fail does.
//   - The package is kept out of the default binary: the apiserver's
//     validating-policy plugin imports client-go's fake clientset, which
//     registers every built-in API type, about 18 MB. Only a binary built
//     with the server tag links it (cmd/mut2cel/verifyserver.go); verifyrun
//     reaches it through the PolicyJudges it is given.
package policyjudge
