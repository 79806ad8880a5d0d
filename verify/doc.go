// Package verify is the differential verifier of mut2cel: it generates
// updates of custom resources and compares, on each, the verdict of the
// reference semantics (verify/reference) with the verdict of a CRD's
// x-kubernetes-validations rules as the apiserver evaluates them.
//
// Inputs and outputs:
//
//   - Verify takes a CRD document with declarations, as verify/declread
//     reads it, and the CRD document under test (its translation, or any
//     other), and returns a Report per served version: pairs checked,
//     disagreements counted by Cause (the rules that deny, or the
//     declarations and kinds of violation the reference reports), the
//     first pair of each of the first causes shrunk to a small
//     Counterexample with both verdicts and the rules involved, and per
//     declaration the pairs that exercised it. It returns an error, not a
//     report, when a document is unusable: invalid declarations, a version
//     served but not declared, a CRD under test that the apiserver's CRD
//     validation refuses; a *JudgeError when the judge (Options.NewJudge)
//     fails, which is no fault of the documents.
//   - The judge of a version decides updates by its rules: by default the
//     apiserver's CEL validator in process (judge.go); driver/verifyrun
//     and driver/apiserver bring judges that decide by admission policies
//     or through a real server.
//   - The pairs come from verify/pairgen, aimed at the declared nodes and
//     shaped to the unions the checker reads.
//
// Invariants:
//
//   - Verify is deterministic: the same documents, seed and pair count give
//     the same report. Both objects of a pair go through the apiserver's
//     storage pipeline (internal/kube.Store; the old one also through the
//     JSON round trip; the new one only where it differs from the old one,
//     storeNew, which the tests hold to the whole pipeline through
//     CheckStoredObjects) before either side judges them, and the CEL side
//     runs the apiserver's own validator, compiled once per version.
//   - The reference verdict is the checker's composed with the rules of
//     the declared document (its companions), as the apiserver composes
//     rules: an update is allowed when the checker and every companion
//     allow it. Companions only add denials, so they never hide an update
//     the checker denies; the checker itself never reads them.
//   - A pair is judged only when the apiserver would judge it by its
//     rules: both objects, with the apiVersion, kind and metadata the
//     apiserver puts on every object (resource.go), pass the schema,
//     list-type and non-transition rule validation of a create. A refused
//     pair is mended where the apiserver's error points
//     (pairgen.Generator.Repair), in generation order, so the report does
//     not depend on Options.Workers; one still refused is set aside and
//     counts for nothing else.
//   - A run passes (Report.Failed) only when it found no disagreement and
//     judged pairs broke every constraint of every declaration
//     (reference.Checker.Constraints), and few pairs were set aside. A
//     disagreeing pair is counted apart as an integer sent as a float
//     (semantics.md 2.4) only when the same pair with integers for those
//     floats, judged again, agrees; a rule failing on a formatted string
//     CEL cannot read, where a declaration compares such strings as
//     values, counts as the denial the checker predicts; any other rule
//     evaluation error is a disagreement.
//   - Shrinking (verify/shrink) keeps a counterexample valid, failing the
//     same way and of the same cause, and only ever makes the pair
//     smaller.
package verify
