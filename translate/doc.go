// Package translate compiles the mutability declarations of CRD schemas into
// CEL transition rules that the kube-apiserver enforces, and their unions
// into rules on the union's object.
//
// Input: one CustomResourceDefinition document (apiextensions.k8s.io/v1),
// decoded from YAML or JSON into map[string]interface{}, whose version schemas
// may carry x-kubernetes-mutability, x-kubernetes-key-mutability,
// x-kubernetes-update and x-kubernetes-unions, with the modifier
// x-mut2cel-formats beside them, and declarations kept outside the
// schemas: the
// mut2cel.io/declarations annotation and Options.Declarations.
//
// Phases: the CRD is read once into its model (crd.Read: versions,
// schemas, and the mut2cel.io annotations as read); the target Kubernetes
// version is resolved (target.go: options, then declarations files, then
// the CRD's mut2cel.io/kube-version record, then the fallback), and the
// bounds declarations files give are read (givenbounds.go); every front end
// (schemaDeclarations, the annotation, the declarations files) produces
// decl.Declarations from it; gather checks them against the model
// (version, path, agreement, placement) and reports each problem where
// the declaration was written; the rules an earlier run generated are
// found by their record and set aside (crdrules.FindOwned); the rule
// compiler (the planner over the structural schema) reads only the
// declarations and fills a plan.Plan per version with the rules on their
// hosts, and costest adds the bounds they need and their costs (Compile
// stops here). The CRD back end (backend/crdrules) writes the plan into
// the document, where the apiserver's own validation checks it, and
// Translate has it write the plan into the document as it is: netted
// against the owned rules, with the mut2cel.io annotations
// (crdrules.Write). translate never indexes the document itself: it asks
// the model (crd) for nodes, paths and the typed CRD.
//
// Output: Compile returns the plan, which other back ends read alone.
// Translate returns a Result holding the plan, the edit.Edits that turn
// the document into its translation (declarations removed,
// x-kubernetes-validations rules appended, bounds set, the declarations
// and a record of the generated rules kept in the
// mut2cel.io/declarations and mut2cel.io/generated annotations, and a
// target other than the default in mut2cel.io/kube-version) and the
// translated document itself.
//
// Invariants:
//   - Every served and unserved version is translated; a version without
//     declarations is left untouched.
//   - Served versions that store the same objects (no conversion webhook)
//     declare alike on every path they share: otherwise Translate fails,
//     or, with Options.AllServedVersions, copies the declarations. With a
//     conversion webhook a missing declaration is a warning.
//   - The rules mean exactly what docs/semantics.md says: on every update the
//     apiserver's CEL validator denies what the reference checker in verify/
//     denies. Where no exact rule exists for the target Kubernetes version,
//     Translate fails and says why; it never emits a weaker or stronger rule.
//     Under the modifier x-mut2cel-formats: CompareAsValues (or
//     Options.CompareFormatsAsValues), "exactly" is with the equality of
//     formatted strings that semantics.md section 8 states for it.
//   - Every rule sits where the apiserver evaluates it: value checks on the
//     declared node when the apiserver correlates it with its old value,
//     presence and key checks on the nearest entry (list item, map value or
//     root) that exists before and after the update; union checks, which
//     read no oldSelf, on the union's object, checked on create and, as
//     the apiserver ratchets them, on update where that object changed.
//   - Every rule compiles in the CEL environment the target Kubernetes
//     version uses for new CRD rules, and the output CRD passes the
//     apiserver's CRD validation.
//   - Hand-written rules are kept; a generated rule whose text equals a rule
//     already on the node is not added again.
//   - A translated CRD can be translated again (docs/rewrite.md): the
//     declarations come from the annotation and from the schema, the rules
//     mut2cel generated earlier are recognised by the record, removed when
//     no longer generated and kept in place when generated again. A rule
//     edited by hand is no longer recognised and so stays.
//   - A CRD without declarations and without mut2cel.io annotations gets no
//     edits.
//   - A schema key that misspells one of the three extensions, and an
//     annotation named like mut2cel's that is not one of its own, is a
//     problem (CheckSpelling): the apiserver drops unknown schema keys
//     (or, under strict field validation, refuses them), so the
//     declaration would vanish without a word.
//   - Problems of every phase are collected: one that does not fit leaves
//     its declaration out and the others are still compiled, so that no
//     problem hides another. They are sorted by file and line, then path.
//   - A problem is a diag.Diagnostic (Problem is that type). Its message
//     names no command-line flag: where an option would change the
//     outcome, Hint names the Options field and the command words it.
//     A refused declaration names every reason found in one run, not
//     only the first (Problem.Reasons): each node CEL cannot compare or
//     name, the Kubernetes version the rules need, each rule over the
//     cost limits.
//   - The output is deterministic, and translating it again changes nothing.
package translate
