// Package translate is the translation of a CRD: its declarations
// compiled (package compiler) and written into it as
// x-kubernetes-validations rules by the CRD back end (backend/crdrules),
// in one call, as the translate, patch and cost commands and the tests
// use it.
//
// Input: one CustomResourceDefinition document (apiextensions.k8s.io/v1),
// decoded from YAML or JSON into map[string]interface{}, and the Options
// of the compiler and of the CRD back end.
//
// Output: Translate returns a Result holding the plan, the CRD rules
// written for it (with their costs), the edit.Edits that turn the
// document into its translation (declarations removed,
// x-kubernetes-validations rules appended, bounds set, the declarations
// and a record of the generated rules kept in the
// mut2cel.io/declarations and mut2cel.io/generated annotations, and a
// target other than the default in mut2cel.io/kube-version) and the
// translated document itself. Compile returns the plan alone, for the
// other back ends. Declared and DeclaredWith return the CRD as its author
// declared it, for verify's reference checker.
//
// Invariants:
//   - The rules mean exactly what docs/semantics.md says: on every update
//     the apiserver's CEL validator denies what the reference checker in
//     verify/ denies. Where no exact rule exists for the target Kubernetes
//     version, Translate fails and says why; it never emits a weaker or
//     stronger rule.
//   - Problems of the compiler and of the CRD back end are reported
//     together, as one *Error, sorted by file and line, then path: a
//     problem of one never hides a problem of the other.
//   - A translated CRD can be translated again (docs/rewrite.md), and
//     translating it again changes nothing; a CRD without declarations and
//     without mut2cel.io annotations gets no edits.
//   - The document is read into its model once (crd.Read) for both
//     phases; the CRD back end reads it once more with the rules an
//     earlier run generated set aside.
package translate
