// Package plan is what the compiler decided for one CRD, before anything
// is written out: per version, the checks its declarations need, where
// each runs, and what it stands for, in terms of the schema and of
// docs/semantics.md alone. Back ends read a Plan and say it in their own
// form: the CRD's own x-kubernetes-validations in backend/crdrules (and
// from there the kustomize component), the admission policies of
// backend/policy. A new form of output is a new reader of this package,
// never a change to the compiler.
//
// Input: the compiler (translate.Compile) fills a Plan; nothing here
// compiles or reads a CRD document.
//
// Output: a Plan holding the Resource it is for (the CRD's name, the
// group, kind, plural and scope of its resources), the Kubernetes version
// the output must work on, and per version
// (name, served, storage) its declarations, its rules (check.go: a Check
// on a host node, with its message, reason, the field it is about, the
// declaration it stands for), the maxItems declarations files give its
// lists, the bounds a back end found its output needs, and the lists
// and maps above its unions with how their entries pair with old ones
// (collection.go), for a back end that normalizes those unions.
//
// Invariants:
//   - Every node is a decl.Path relative to the version's
//     openAPIV3Schema, never a document path: a back end that writes
//     into a CRD resolves it against the version's schema; one that
//     writes elsewhere never needs the document.
//   - A check is no text in any expression language: it names paths,
//     presence, equality, pairs of entries and unions, and means what
//     docs/semantics.md says of them. A back end that needs to read its
//     own output back to write another form has found something missing
//     here.
//   - A rule's check is read at its host: it holds wherever the host
//     exists in the new object (and, for a transition, in the old one),
//     exactly as the apiserver evaluates x-kubernetes-validations there.
//     A back end evaluating it from elsewhere walks to every instance of
//     the host, pairing old and new entries as semantics.md 2.2 says.
//   - Rules stand each for one declaration, in the order of the
//     declarations (Less on their paths, then decl.Extensions) and, for
//     one declaration, in the order they were made; a version's
//     Declarations list every declaration compiled for it, also those
//     that needed no rule, so that a back end can remove or record them.
//     Two declarations may need the same check on the same host: the
//     plan keeps both, and a back end that keys its output by text writes
//     one.
//   - The package imports only the model (decl): back ends and the
//     compiler depend on it, never the reverse.
package plan
