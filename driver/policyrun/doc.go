// Package policyrun drives mut2cel policy: it compiles the CRDs of each
// input as mut2cel translate does, hands each plan to the policy back end
// for the kinds of policy asked for, and writes one file per policy and
// binding and a kustomization that lists them.
//
// In: the inputs of a run (batch.Input), the command's translator, the
// kinds of policy and the binding options (Options). Out: per input, the
// policy files (File) of its CRDs and the diagnostics, each refusal of
// the back end at the line of the schema node it is about, and one note
// per validating policy on its cost (costest.PolicyReach: the object
// sizes up to which its validations are sure to stay within the runtime
// limits), and one per CRD whose served versions declare only what needs
// no rule (batch.UnenforcedNote); the kustomization text; the files
// written (Write).
//
// Invariants:
//   - A CRD that cannot be translated, or whose policies the back end
//     refuses, is reported and gives no file; a run with any diagnostic
//     writes nothing. Notes never fail a run; a validation that does not
//     compile where the apiserver runs policies is an error.
//   - A run that declares nothing (with --validate=false: no union) is
//     an error, as for translate; one whose declarations all need no
//     rule succeeds writing no policy, as translate writes no rule, and
//     says so: with a directory, its kustomization lists none.
//   - A kind of policy that a CRD needs and the target Kubernetes
//     version does not serve (policy.ValidatingSince,
//     policy.MutatingSince) is an error at the CRD naming the target and
//     --kube-version (target.go): the run writes nothing rather than a
//     file the cluster refuses.
//   - Each policy is written once: two CRDs giving one file name (a CRD
//     given twice) is a diagnostic.
//   - Write replaces only files that mut2cel policy wrote (Header), each
//     atomically, writes the kustomization last, and removes the files
//     of an earlier run that the new one no longer has.
//   - A second kind of policy is one more branch of Options and of
//     policies(); files, names and the kustomization are shared.
package policyrun
