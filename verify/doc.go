// Package verify holds the reference checker of mut2cel and the
// differential verifier built on it.
//
// The checker decides updates of a custom resource directly from
// docs/semantics.md, without CEL and without the translator's analysis, so
// that one misreading of the semantics cannot hide in both. The verifier
// generates updates and compares the checker's verdict with the verdict of
// a CRD's x-kubernetes-validations rules as the apiserver evaluates them.
//
// Inputs and outputs:
//
//   - NewChecker takes the raw openAPIV3Schema of one CRD version as decoded
//     from JSON or YAML (map[string]interface{}), because the typed
//     apiextensions structs drop the extensions (x-kubernetes-mutability,
//     x-kubernetes-key-mutability, x-kubernetes-update,
//     x-kubernetes-unions, and the modifier x-mut2cel-formats). It returns
//     every invalid declaration (semantics.md 1.1, 9.2, "Unions") as one
//     aggregate of field errors, sorted, with apiserver-style schema paths.
//   - Check takes the old and the new object in stored form (pruned,
//     defaulted, numbers as JSON decoding yields them) and returns the
//     violations, sorted by Path, Kind, Declaration and Detail: of the
//     update declarations, and of the unions on the nodes the apiserver's
//     CRD validation ratcheting would check (unioncheck.go). CheckCreate
//     takes one created object and returns the violations of its unions.
//   - Verify takes a CRD document with declarations and the CRD document
//     under test (its translation, or any other), and returns a Report per
//     served version: pairs checked, disagreements counted by Cause (the
//     rules that deny, or the declarations and kinds of violation the
//     reference reports), the first pair of each of the first causes
//     shrunk to a small Counterexample with both verdicts and the rules
//     involved, and per declaration the pairs that exercised it. It returns an error, not a report, when a
//     document is unusable: invalid declarations, a version served but not
//     declared, a CRD under test that the apiserver's CRD validation
//     refuses; a *JudgeError when the judge (Options.NewJudge) fails, which
//     is no fault of the documents.
//   - Checker.Normalize takes the old object (nil on create) and the
//     new one and returns the new one as the unions' normalization
//     leaves it (semantics.md 11.7, normalize.go), or an error naming
//     the unions it refuses to normalize (inside list items or map
//     values, or over the root's apiVersion, kind or metadata). It
//     walks the JSON itself; the policy back end is held to it by
//     tests that run the policies with the apiserver's code.
//   - The declared document is read by verify/declread, which writes every
//     declaration inline and sets the generated rules aside.
//   - NewPairGenerator takes a structural schema and a seed and yields raw
//     old/new object pairs, for reuse by other test drivers. Verify's
//     generator also learns the unions from the checker (pairunion.go),
//     which a structural schema cannot hold.
//
// Invariants:
//
//   - Check(x, x) is empty for every x, but where a declaration compares
//     formatted strings as values (x-mut2cel-formats, or
//     Checker.CompareFormatsAsValues) and x holds, where it covers, a
//     string the apiserver's CEL cannot read: that string equals nothing,
//     and the update is denied, as the apiserver denies it
//     (semantics.md 8). The checker reads the three formats on its own
//     (formatvalue.go).
//   - Check(x, x) is empty for every x that holds its unions; for any x it
//     holds nothing but union violations, on nodes that hold a key without
//     a schema (the root's metadata, preserved unknown fields), which the
//     apiserver's ratcheting never finds unchanged either.
//   - The result never depends on Go map iteration order: properties and map
//     keys are walked sorted, list items in list order.
//   - Check never panics on objects that do not match the schema: a value of
//     the wrong type is a position that does not resolve, a collection of the
//     wrong type has no keys. Duplicate keys in list-maps and sets, which
//     validation rejects, pair old and new items in order of occurrence.
//   - What the checker shares with the translator is named: the kinds'
//     names and the reading of their values, of the annotation and of
//     declarations files (decl's parsers), and the rule fingerprint of the
//     generated-rules record (decl.Fingerprint), by which verify/declread
//     sets mut2cel's own rules aside. Where a declaration may stand and
//     what it means, the checker decides alone; how the declarations of
//     the annotation, the files and --all-versions come together,
//     verify/declread does alone.
//   - Only junctor-free schema nodes describe fields: allOf, anyOf, oneOf and
//     not are read only to reject declarations inside them.
//   - x-kubernetes-unions is read by the checker alone (union.go), not by
//     decl: where a union may stand and what it means are the checker's,
//     like every other declaration's.
//   - Verify is deterministic: the same documents, seed and pair count give
//     the same report. Both objects of a pair go through the apiserver's
//     storage pipeline (internal/kube.Store; the old one also through the
//     JSON round trip; the new one only where it differs from the old one,
//     storeNew, which the package's tests hold to the whole pipeline)
//     before either side judges them, and the CEL side runs the apiserver's
//     own validator, compiled once per version.
//   - The reference verdict is the checker's composed with the rules of
//     the declared document (its companions), as the apiserver composes
//     rules: an update is allowed when the checker and every companion
//     allow it. Companions only add denials, so they never hide an update
//     the checker denies; the checker itself never reads them.
//   - A pair is judged only when the apiserver would judge it by its
//     rules: both objects, with the apiVersion, kind and metadata the
//     apiserver puts on every object (resource.go), pass the schema,
//     list-type and non-transition rule validation of a create. A refused
//     pair is mended where the apiserver's error points (learn.go), in
//     generation order, so the report does not depend on Options.Workers;
//     one still refused is set aside and counts for nothing else.
//   - A run passes (Report.Failed) only when it found no disagreement and
//     judged pairs broke every constraint of every declaration
//     (constraints.go), and few pairs were set aside. A disagreeing pair is
//     counted apart as an integer sent as a float (semantics.md 2.4) only
//     when the same pair with integers for those floats, judged again,
//     agrees; a rule failing on a formatted string CEL cannot read, where a
//     declaration compares such strings as values, counts as the denial
//     the checker predicts; any other rule evaluation error is a
//     disagreement.
//   - Shrinking keeps a counterexample valid, failing the same way and of
//     the same cause, and only ever makes the pair smaller.
package verify
