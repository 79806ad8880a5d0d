// Package costest estimates the CEL cost of the x-kubernetes-validations
// rules of a CRD version exactly as the apiserver does when it validates the
// CRD, and finds the maxLength, maxItems and maxProperties bounds that bring
// rules under the cost limits.
//
// Inputs and outputs:
//
//   - Estimate takes the openAPIV3Schema of one CRD version
//     (apiextensions.k8s.io/v1 types) and the CEL environment the target
//     apiserver compiles new rules in. It returns a Report: one Cost per rule
//     and per messageExpression, in schema order, and the version total.
//   - Report.Exceeded lists the limits the version crosses: the static
//     per-expression limit (10M) and per-version limit (100M) that make the
//     apiserver reject the CRD, and the runtime limits (1M per rule call, 10M
//     per object) at which a running rule is cancelled.
//   - Bounds takes the same schema, a predicate naming the rules it may
//     bound for (the generated ones), floors and explicit values, and
//     returns the bounds without which those rules would cross a static
//     limit, or, when no bounds at or above the floors make them fit, an
//     UnfitError naming every rule over the per-expression limit and the
//     nodes that make the cost of each.
//   - RuntimeReach says up to which object sizes the selected rules are
//     sure to stay within the runtime limits: these are judged on
//     realistic objects, never bounded for (docs/cost.md).
//   - EstimatePolicy and PolicyReach do the same for the validations of a
//     ValidatingAdmissionPolicy on a resource, given its version schema:
//     per expression against the per-call limit, together against the
//     per-binding budget (10M); a policy has no static limit.
//
// Invariants:
//
//   - Costs are the apiserver's: the schema is walked with the apiserver's
//     own CEL schema contexts (validation.RootCELContext and its children)
//     and every rule compiled with schema/cel.Compile; the only arithmetic
//     done here is the apiserver's "estimated cost times cardinality", with
//     its overflow guard. A policy's expressions are compiled in the
//     environment the apiserver runs policies in and estimated with its
//     CostEstimator; the few lines that give it sizes from the schema
//     (policySizes) are the apiserver's own, unexported, rooted at
//     object and oldObject instead of self.
//   - Bounds never lowers or removes an existing bound, never goes below a
//     floor (by default maxLength 253, maxItems and maxProperties 64), and
//     bounds only nodes whose size enters the estimated cost of a selected
//     rule that needs a bound (a string compared inside its object's ==
//     does not).
//   - Results are deterministic: properties are walked in sorted order.
package costest
