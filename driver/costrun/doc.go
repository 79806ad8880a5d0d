// Package costrun drives mut2cel cost (Run) and builds its report: for
// every version of a CRD, the estimated cost of each rule (hand-written,
// and those translate would generate, marked), the version total, the
// limits crossed, the bounds translate added and the bounds that would
// bring each rule over a limit back under it. The JSON form is documented
// in docs/cost.md and is stable: fields are only ever added.
//
// Input: Run takes the inputs of a run (Options). Document takes one CRD
// document (apiextensions.k8s.io/v1) decoded into map[string]interface{},
// the translate.Options of the run and its translator (translate.Translate,
// or the command's, which applies markers); it estimates the CRD as that
// translator writes it, with costest's estimator in the CEL environment of
// the target Kubernetes version.
//
// Output: Run returns the batch.Outcome of the run: the report, as text
// or JSON, the problems, and a finding where the apiserver would reject a
// CRD. Document returns a CRDCosts per document, gathered into a Report;
// WriteText prints a Report for people, encoding/json for programs.
//
// Invariants:
//   - Every version that has a schema is audited, served or not, in the
//     CRD's order.
//   - Every rule of a version is listed, and every messageExpression that
//     compiles, on a line of its own; a rule is marked generated when
//     translate generated it on that node of that version, in this run or
//     an earlier one, and only then.
//   - Rules are listed costliest first; equal costs keep costest's schema
//     order.
//   - A CRD is Declared when its translation worked on it (batch.Works),
//     or failed: translate fails only on a CRD that declares.
//   - A limit crossed, and its suggestion, are Upstream when the
//     expression was in the input (not generated), or, for a version
//     limit, when the expressions that were in the input cross it alone.
//   - A version's total is the sum (saturating) of the costs it lists,
//     messageExpressions included: the figure the apiserver compares with
//     the per-version limit.
//   - Every expression over a limit, static or runtime, has one suggestion;
//     a version whose total crosses the per-version limit while none of
//     its expressions crosses a limit has one for all of them together.
//   - Report.Rejected is true when some version crosses a static limit,
//     the ones that make the apiserver reject the CRD.
//   - WriteText is deterministic and its lines fit in Width columns: the
//     table cuts rule texts and keeps the end of node paths; other lines
//     break at spaces, so only a word longer than a line (a node path, a
//     name) goes past it, never cut.
package costrun
