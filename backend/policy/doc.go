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
// check of the plan and the variables they share (print.go, pairs.go,
// checks.go, walks.go, ratchet.go say the checks in CEL over the stored
// JSON); Normalizing writes a MutatingAdmissionPolicy that performs
// KEP-1027's "Normalizing on updates" for the version's unions
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
//   - A validation means what the plan's check means (docs/semantics.md),
//     evaluated where the apiserver would evaluate a CRD rule: it walks
//     the whole objects to every instance of the check's host and pairs
//     old and new entries as the apiserver does for CRD rules (pairs.go),
//     list-map items by a map of the old items by key where the target has
//     one (1.33 on), so that pairing is linear; a check that reads no old
//     value (a union's) is checked on create and on update, except where
//     the apiserver's validation ratcheting would drop its errors, whose
//     test of an unchanged node is written out (walks.go, ratchet.go).
//     Values are the plain JSON a policy sees: properties under their own
//     names, read with optional selection so that a null property counts
//     as absent, compared with == where that is strict.
//   - No CEL is read back: the package writes the checks of the plan and
//     nothing else.
//   - What no policy can do exactly is an error with its version and
//     schema path, and nothing is written for the CRD: formatted strings
//     compared as values, fields inside an embedded resource's metadata,
//     items compared by index before 1.33 where no maxItems bounds them,
//     a union normalized at the root with apiVersion, kind or metadata as
//     a member or discriminator.
//   - A union inside list items or map values is normalized at every
//     instance of its node, each against the old entry the plan's
//     Collections pair with it (by map key, by list-map keys, or none:
//     as created), by one expression that walks the entries (normwalk.go).
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
//     types only: no other back end.
package policy
