// Package plan is what the compiler decided for one CRD, before anything
// is written out: the rules it generated and the bounds they need, per
// version. Back ends read a Plan and render it in their own form (the
// CRD's own x-kubernetes-validations in backend/crdrules, and from there
// the kustomize component; the admission policies of backend/policy),
// so that a new form of output is a new reader of this package, not a
// change to the compiler.
//
// Input: the compiler (translate.Compile) fills a Plan; nothing here
// compiles or reads a CRD document.
//
// Output: a Plan holding the CRD's identity (name, group, kind, plural,
// scope), the Kubernetes version the rules were compiled for, and per
// version (name, served, storage) its declarations, its generated rules
// and its bounds.
//
// Invariants:
//   - Every node is a decl.Path relative to the version's
//     openAPIV3Schema, never a document path: a back end that writes
//     into a CRD resolves it against the version's schema; one that
//     writes elsewhere never needs the document.
//   - A rule's CEL is relative to its host: self is the host node, and
//     oldSelf its old value, exactly as the apiserver evaluates
//     x-kubernetes-validations there. A back end evaluating the rule from
//     elsewhere must bind self and oldSelf to the host.
//   - Rules, declarations and bounds are in a fixed order (Less on their
//     nodes; a node's rules in the order the compiler generated them;
//     bounds as the cost estimator chose them), so that every back end
//     writes the same input to the same bytes.
//   - Every rule names the declarations it stands for (Origin); a
//     version's Declarations list every declaration compiled for it,
//     also those that needed no rule, so that a back end can remove or
//     record them.
//   - The package imports only the model (decl, edit): back ends and the
//     compiler depend on it, never the reverse.
package plan
