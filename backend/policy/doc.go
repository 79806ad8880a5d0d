// Package policy is the admission-policy back end: it writes the
// declarations of a plan as Kubernetes admission policies, for resources
// whose schema the user cannot change (a CRD an operator reconciles, a
// built-in type), and the normalization of unions, which no schema can
// express.
//
// Input: a plan.Plan (translate.Compile) and the crd.CRD it was compiled
// from, whose version schemas say how old and new entries pair.
//
// Output: per version of the CRD with rules, a ValidatingAdmissionPolicy
// (admissionregistration.k8s.io/v1) with one validation per rule of the
// plan, and its ValidatingAdmissionPolicyBinding.
//
// Invariants:
//   - A validation means what the plan's rule means on the CRD
//     (docs/semantics.md), evaluated where the apiserver would evaluate
//     the rule: it walks the whole objects to every instance of the rule's
//     host and pairs old and new entries as the apiserver does for CRD
//     rules (hosts.go); a rule that reads no oldSelf (a union's) is checked
//     on create and on update, except where the apiserver's validation
//     ratcheting would drop its errors, whose test of an unchanged node it
//     writes out.
//   - A rule's CEL is rewritten for the plain JSON values a policy sees
//     (plainvalues.go): property names unescaped, a null property absent.
//   - What no policy can mean exactly is an *Inexpressible error naming
//     the version and path, never a weaker validation: formatted strings
//     compared as values, and the few ratcheting tests below noted there.
//   - The policies match requests of exactly their version
//     (matchPolicy: Exact), as CRD rules judge objects of their version;
//     status/<plural> is matched where a rule is under status and the
//     version has the status subresource.
//   - The package imports only the model (crd, decl, plan).
package policy
