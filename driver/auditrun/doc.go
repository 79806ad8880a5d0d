// Package auditrun drives mut2cel audit: for every CRD of the inputs, or
// of a live cluster, the guarantees it documents (what mut2cel infer
// proposes, driver/inferrun) are checked against its published rules with
// the verifier (verify.Verify, as verify --against checks a published CRD
// against declarations), and reported per CRD and field: enforced
// exactly, enforced with holes (each with a shrunk counterexample), or not
// at all, with the rules mut2cel would add for it and their cost
// (translate's CRD back end, estimated as the apiserver does).
//
// Input: Options: the Source of the CRDs (driver/inferrun), the translate
// options and translator of the run, the pairs and seed of the verifier,
// how many CRDs are verified at once, the format, and a batch.Reporter.
// Output: a batch.Outcome: the report (Report; text for people, JSON for
// tools), the problems, a summary line, and a finding (exit 1) when some
// documented guarantee is not enforced or has holes.
//
// Invariants:
//   - Only sure proposals are checked; a proposal that is not sure is
//     listed, unchecked, and never fails the run.
//   - A field's status is read from the verifier's counts of the judged
//     updates that break its declarations: none let through is enforced
//     (untested when some constraint was never broken), all let through
//     is not enforced, some is holes.
//   - Findings are sorted by risk: status, then what the holes let
//     through (a value before a presence), then CRD and path.
//   - The report depends on the CRDs, the pairs and the seed only, not on
//     how many CRDs are verified at once nor on where they were read: a
//     CRD read from a cluster reports as its manifest does, but for its
//     origin.
//   - A cluster is only read (frontend/cluster).
package auditrun
