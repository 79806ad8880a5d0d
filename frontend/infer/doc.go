// Package infer is the front end that proposes declarations for a CRD
// from what the CRD already says: its published transition and union
// rules, read structurally with cel-go's parser (package ruleshape), and
// the sentences of its descriptions, read with a documented table of
// phrasings (package phrases) (docs/infer.md). It is for CRDs the user
// does not own, whose intent is written down but not declared.
//
// Those two read a rule or a sentence alone; this package reads them
// against the schema node they stand on, gathers what each version says
// of each node, makes the proposals, joins the versions, and writes them.
//
// Input: a CRD model (crd.CRD), as the other front ends take it.
//
// Output: a Result per CRD: Proposals, each a declaration of one schema
// path in the served versions it holds for (decl's kinds and values),
// with its Evidence (the rule, its message, the sentence, where and in
// which versions) and Notes (the published rules enforce less than the
// text says, versions disagree); a proposal that is not sure carries the
// Doubt that keeps it commented out. Write gives the declarations-file
// text decl.ParseFile reads and translate --declarations takes; Sets gives
// the sure proposals as decl.Sets; Vet runs a compiler the caller passes
// (translate, in the driver and the tests) and comments out what it
// refuses, with its reason. Evidence.Describe says one evidence on a
// line as Write does, for other writers (the audit report).
//
// Invariants:
//   - Precision first: what is not sure is written commented out, saying
//     why; nothing is proposed from a rule that holds under a condition,
//     a conditional or hedged sentence, a sentence about another field or
//     another object (a template, Kubernetes' own documentation copied
//     with an embedded type).
//   - Where a published rule and the text disagree, the proposal follows
//     the stronger documented intent, and a note says so.
//   - Rules are parsed and read by their shape (ruleshape), never
//     matched as text; sentences are matched against the one table of
//     phrasings and qualifiers (phrases).
//   - Every proposal names a path its versions have, on a node where its
//     kind may stand (docs/semantics.md 1.1 and 9.2); without a conversion
//     webhook a proposal holds in every served version with the path.
//   - The output depends on the CRD only: nodes, rules and versions are
//     read in a fixed order, and quotes are bounded (WriteOptions).
//   - Untrusted text cannot make it fail: a rule that does not parse is
//     skipped, texts are read up to a bound.
package infer
