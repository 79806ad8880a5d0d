// Package compiler compiles the mutability declarations of one CRD into
// its plan: the checks each declaration needs, the node each runs on, and
// what it stands for (package plan). It knows the meaning of the
// declarations (docs/semantics.md) and the shape of the schema, and no
// output form: the back ends say the plan as CRD rules or admission
// policies.
//
// Input: the model of one CustomResourceDefinition (crd.CRD, read once by
// the caller), whose version schemas may carry x-kubernetes-mutability,
// x-kubernetes-key-mutability, x-kubernetes-update and x-kubernetes-unions,
// with the modifier x-mut2cel-formats beside them, and declarations kept
// outside the schemas: the mut2cel.io/declarations annotation and
// Options.Declarations (declarations files, Go markers).
//
// Phases: the target Kubernetes version is resolved (target.go: options,
// then declarations files, then the CRD's mut2cel.io/kube-version record,
// then the fallback), and the bounds declarations files give are read
// (givenbounds.go); every front end (schemaDeclarations, the annotation,
// the declarations files) produces decl.Declarations; gather checks them
// against the model (version, path, agreement, placement) and reports
// each problem where the declaration was written; served.go spreads or
// checks the declarations of versions that store the same objects; the
// planner (plan.go, union.go) walks each version's schema tree
// (crd.Node) and makes the checks of every declaration.
//
// Output: Compile returns a Result: the plan, the problems of every phase
// and the warnings. Declarations returns the declarations alone, as the
// CRD's author made them.
//
// Invariants:
//   - The package imports the model (crd, decl, plan) and nothing of any
//     back end: no CEL, no policy, no CRD edit.
//   - Every served and unserved version is planned; a version without
//     declarations has no rules.
//   - Served versions that store the same objects (no conversion webhook)
//     declare alike on every path they share: otherwise a problem, or,
//     with Options.AllServedVersions, copies of the declarations. With a
//     conversion webhook a missing declaration is a warning.
//   - The checks mean exactly what docs/semantics.md says; the rule of
//     each check sits where a CRD rule would be evaluated: value checks on
//     the declared node when the apiserver pairs it with its old value,
//     else on the nearest node above that it pairs, through every pair of
//     instances; presence and key checks for the nearest entry (list
//     item, map value or root) that exists before and after the update;
//     union checks, which read no old value, on the union's object. A
//     check that can never fail (inside a set item, or inside a value
//     kept whole by a declaration above) is not made.
//   - A schema key that misspells one of the extensions, and an
//     annotation named like mut2cel's that is not one of its own, is a
//     problem (CheckSpelling): the apiserver drops unknown schema keys,
//     so the declaration would vanish without a word.
//   - Problems of every phase are collected: one that does not fit leaves
//     its declaration out and the others are still compiled, so that no
//     problem hides another. A problem is a diag.Diagnostic (Problem),
//     placed where the declaration was written; its message names no
//     command-line flag: where an option would change the outcome, Hint
//     names it and the command words it.
//   - The output is deterministic.
package compiler
