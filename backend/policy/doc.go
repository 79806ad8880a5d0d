// Package policy is the admission-policy back end: it writes the
// declarations of a plan as objects of admissionregistration.k8s.io/v1
// that the apiserver runs on requests for a CRD's resources. Validating
// policies enforce the declarations where the CRD cannot carry rules (a
// CRD an operator reconciles); mutating policies normalize unions, which
// no schema can express.
//
// Input: a plan (plan.Plan, from translate.Compile), for validating
// policies also the crd.CRD it was compiled from, whose version schemas
// say how old and new entries pair, and the options of the bindings
// (Options: which namespaces and objects, which service accounts are
// exempt, the failure policy).
//
// Output: per version with something to write, a policy and its binding:
// Validating writes a ValidatingAdmissionPolicy with one validation per
// rule of the plan; Normalizing writes a MutatingAdmissionPolicy that
// performs KEP-1027's "Normalizing on updates" for the version's unions
// (docs/semantics.md 11.7). Render writes their YAML, one document each.
//
// admission.go holds what every kind of policy shares: the names (Name),
// the match constraints of a version, the binding options and their
// match conditions, and the rendering.
//
// Invariants:
//   - One policy per version with something to write: versions may
//     differ, and each policy matches its version alone (matchPolicy
//     Exact), as CRD rules judge objects of their version, so that a
//     request is handled by the policy of the version it is sent
//     through, whose schema paths it uses. A policy matches the status
//     subresource too where something it checks or normalizes lies under
//     .status.
//   - A validation means what the plan's rule means on the CRD
//     (docs/semantics.md), evaluated where the apiserver would evaluate
//     the rule: it walks the whole objects to every instance of the rule's
//     host and pairs old and new entries as the apiserver does for CRD
//     rules (hosts.go); a rule that reads no oldSelf (a union's) is checked
//     on create and on update, except where the apiserver's validation
//     ratcheting would drop its errors, whose test of an unchanged node is
//     written out. The rule's CEL is rewritten for the plain JSON values a
//     policy sees (plainvalues.go): property names unescaped, a null
//     property absent.
//   - What no policy can do exactly is an error with its version and
//     schema path, and nothing is written for the CRD: formatted strings
//     compared as values, a union normalized inside list
//     items or map values, or at the root with apiVersion, kind or
//     metadata as a member or discriminator.
//   - Names are lowercase DNS subdomains made of the CRD's name, the kind
//     of policy and the version; a name that would not be one is an
//     error, not a shortened name.
//   - JSON pointers are built here with RFC 6901 escaping. A mutation
//     removes a member only where it is set in the new object, and sets
//     the discriminator only where its value differs, so that a
//     normalized object passes through unchanged (the policy is
//     idempotent; the apiserver may reinvoke it).
//   - The output is deterministic: versions in the plan's order, rules and
//     unions in the order of plan.Less on their nodes, then as declared;
//     YAML with sorted keys and no creationTimestamp or status.
//   - The package imports the model (crd, decl, plan) and Kubernetes' API
//     types only.
package policy
