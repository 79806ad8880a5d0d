// Package admit evaluates admission policies in process with the
// apiserver's own code, so that tests and verify can hold the policies
// mut2cel writes to what a cluster would do with them.
//
// Input: a policy as the k8s.io/api types hold it
// (admissionregistration.k8s.io/v1), and one request: the operation, the
// resource and kind it is for, the new and the old object as plain JSON
// maps, and the user who sends it.
//
// Output: for a ValidatingAdmissionPolicy (NewValidating,
// Validating.Validate), the messages of the validations that denied the
// request and of those that failed to evaluate; for a
// MutatingAdmissionPolicy (Mutating, Mutator.Mutate), the object as the
// policy leaves it, the cost each mutation spent, and whether the
// policy's match conditions let it run at all.
//
// Invariants:
//   - Compilation is that of the apiserver's unexported compilePolicy
//     functions (k8s.io/apiserver/pkg/admission/plugin/policy/validating
//     and .../mutating), rebuilt from the parts they export: the
//     composited compiler in the base environment of
//     DefaultCompatibilityVersion, the policy's variables, its match
//     conditions behind matchconditions.NewMatcher, the validator of
//     validating policies, and one patch.NewJSONPatcher per mutation.
//     ApplyConfiguration mutations, which need a type converter built from
//     the resource's schema, are refused. Evaluation follows the
//     dispatchers: match conditions first, then the validations, or the
//     mutations in order, each on the object the previous one left, with
//     the runtime budget celconfig.RuntimeCELCostBudget.
//   - Nothing here re-implements Kubernetes: what the apiserver's code
//     does with a policy is the answer, errors included.
//   - The package imports Kubernetes code only.
//   - Matching by resource rules and selectors (the binding's
//     matchResources) is not evaluated: callers give requests the policy
//     is meant to see.
package admit
