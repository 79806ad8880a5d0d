// Package policy is the back end that writes admission policies from a
// plan: objects of admissionregistration.k8s.io/v1 that the apiserver
// runs on requests for a CRD's resources, beside the rules the CRD
// itself carries.
//
// Input: a plan (plan.Plan, from translate.Compile) and the options of
// the bindings (Options: which namespaces and objects, which service
// accounts are exempt, the failure policy).
//
// Output: per served version, a policy and its binding (Normalizing:
// MutatingAdmissionPolicy objects that perform KEP-1027's "Normalizing
// on updates" for the version's unions, docs/semantics.md 11.7), and
// their YAML (Render), one document each.
//
// The file admission.go holds what every kind of policy shares, so that
// a second kind (validating policies) is one more file: the names
// (Name), the match constraints of a version (resourceRules), the
// binding options and their match conditions, and the rendering.
//
// Invariants:
//   - One policy per served version with something to write: versions
//     may differ, and each policy matches its version alone (matchPolicy
//     Exact), so that a request is handled by the policy of the version
//     it is sent through, whose schema paths it uses.
//   - A policy matches CREATE and UPDATE of the resource, and of its
//     status subresource where a union lies under .status.
//   - Names are lowercase DNS subdomains made of the CRD's name, the
//     kind of policy and the version; a name that would not be one is an
//     error, not a shortened name.
//   - A union the policy cannot normalize exactly (inside list items or
//     map values; at the root with apiVersion, kind or metadata as a
//     member or discriminator) is refused with its version and schema
//     path, and nothing is written for the CRD.
//   - JSON pointers are built here with RFC 6901 escaping, property names
//     in CEL are string literals (x['name']), never identifiers, so no
//     name needs CEL's escaping.
//   - A mutation removes a member only where it is set in the new object,
//     and sets the discriminator only where its value differs, so that a
//     normalized object passes through unchanged (the policy is
//     idempotent; the apiserver may reinvoke it).
//   - The output is deterministic: versions in the plan's order, unions
//     in the order of plan.Less on their nodes, then as declared; YAML
//     with sorted keys and no creationTimestamp or status.
//   - The package imports the model (decl, plan) and Kubernetes' API
//     types only.
package policy
