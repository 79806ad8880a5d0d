// Package admit evaluates admission policies with the apiserver's own
// code, in process: the CEL compiler of admission plugins, match
// conditions, and the validator of ValidatingAdmissionPolicy, assembled
// from their exported parts as the plugin assembles them.
//
// Input: a policy (admissionregistration.k8s.io/v1) and requests of custom
// resources as unstructured objects.
//
// Output: per request, the messages of the validations that denied it and
// of those that failed to evaluate.
//
// Invariants:
//   - Nothing here reads declarations or knows mut2cel's rules: it is the
//     judge the policy back end is checked against.
//   - The runtime cost budget is the apiserver's.
//   - The package imports only Kubernetes code.
package admit
