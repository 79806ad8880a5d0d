// Package patchrun drives mut2cel patch: it translates the CRDs of each
// input with the command's document loop, hands each CRD's published
// form and translation to the kustomize back end, and writes the
// component that back end renders.
//
// In: the inputs of a run (batch.Input) and the command's translator.
// Out: per input, the CRDs to patch (kustomize.CRD, plain documents) and
// batch's result with its diagnostics, warnings and details; the
// diagnostics of CRDs given twice; the kustomization file written.
//
// Invariants:
//   - A CRD that cannot be translated is reported at its line and never
//     handed to the back end.
//   - Each CRD is patched once: a CRD given again is a diagnostic, since
//     kustomize would apply both patches to it.
//   - Write replaces only a kustomization that mut2cel patch wrote
//     (kustomize.Header), atomically, and leaves no directory it created
//     when the write fails.
package patchrun
