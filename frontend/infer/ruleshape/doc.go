// Package ruleshape reads the x-kubernetes-validations rules a CRD
// publishes by their shape: what a transition rule does to the fields it
// compares across an update, which entries of a list or map a rule
// keeps, and how many of a node's properties a rule lets be set
// (docs/infer.md, "What a published rule says: shapes").
//
// Input: the text of one rule. Parse gives a Rule, Parts splits it at
// its top-level && operators, and each Part is read on its own.
//
// Output, for a part that reads oldSelf: its Transitions (the
// constraints of docs/semantics.md section 9 it enforces on each field,
// always or under a condition, and whether it lets the field be set or
// cleared), or its Collection shape (Keys); for a part that does not: a
// union shape (Choice: a Group of members, or a Tie of a member to a
// value of a discriminator).
//
// Invariants:
//   - Rules are parsed with cel-go's parser, without macros, and never
//     matched as text: any way of writing a boolean shape reads alike,
//     since it is evaluated over every case of what its tests may be,
//     with CEL's rules for errors (an error denies).
//   - Names are unescaped as the apiserver escapes them (__namespace__
//     is namespace).
//   - Untrusted text cannot make it fail: a rule that does not parse, or
//     is longer than any shape the table knows needs, is no Rule; a
//     formula with too many tests of other things is not read.
//   - It knows nothing of schemas or CRDs: what a shape means on the
//     node it stands on is for the caller (frontend/infer) to say.
package ruleshape
