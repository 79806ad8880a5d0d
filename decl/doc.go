// Package decl is the model of mutability declarations that every front
// end of mut2cel produces and every phase reads.
//
// Input: the spellings users write. The KEP values of
// x-kubernetes-mutability and x-kubernetes-key-mutability, the list of
// x-kubernetes-update (docs/semantics.md, section 9), the unions of
// x-kubernetes-unions (section "Unions"), the modifier x-mut2cel-formats
// (section 8), which declares nothing on its own, schema paths in the
// notation of the mut2cel.io/declarations annotation, and declarations
// files (kind Declarations) for CRDs the user does not own.
//
// Output: Kinds, the table of declaration kinds (kind.go: the extension
// key, where it may stand in words, how its value reads, checks and is
// written back, its misspellings), which every reader and writer of
// declarations iterates; Declaration, the one model of a declaration
// (CRD, version, path, kind, value, origin) that every front end produces
// and the rule compiler reads; Constraints, the five update constraints
// of Kubernetes, which every spelling means; Union, the unions of one
// object node (union.go), read, checked in themselves, normalized and
// written back; Path, the one parsed form of
// a schema path; Set, the declarations of a declarations file with the
// line of each, the Kubernetes version it says and the bounds its fields
// give; Annotation and Record, the codec of the mut2cel.io/declarations
// and mut2cel.io/generated annotations, with the rule Fingerprint the
// record keeps, and the reading of mut2cel.io/kube-version; and the sentences that say why a
// declaration cannot stand where it is written (wording.go), shared by
// translate and verify.
//
// Invariants:
//   - A spelling that parses renders back to a form that parses to the
//     same value; rendering is canonical (constraints in the order of
//     Names, paths in their shortest notation).
//   - Every error names what was read: the file and line for files, the
//     path for annotations and schemas.
//   - The package reads no schema semantics beyond what a path needs to
//     resolve: where a declaration may stand is decided by its readers,
//     each on its own, and only worded here.
//   - No reader or writer lists the kinds by hand: a kind added to Kinds
//     is read from schemas, the annotation and files, written back,
//     stripped and spell-checked (kind_test.go holds every one to it).
package decl
