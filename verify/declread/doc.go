// Package declread reads the declarations of a CRD document as the
// reference checker's side of verify reads them: from the schemas, the
// mut2cel.io/declarations annotation, declarations files and
// --all-versions, apart from the translator.
//
// In: a decoded CRD document, the sets of declarations files
// (decl.Set) and whether declarations apply to every served version.
// Out: CRD returns the document as declared, with every declaration
// written inline in the schemas (the form reference.NewChecker reads),
// the rules the generated-rules record (mut2cel.io/generated) lists set
// aside and both annotations with them, so that the rules left are the
// author's own, the companions of verify's reference verdict. Annotated
// and Rewritten say whether a document keeps its declarations in the
// annotation, and whether translate rewrote it.
//
// Invariants:
//
//   - The document given is never modified; one that is not an
//     apiextensions.k8s.io/v1 CRD comes back as it is.
//   - Nothing here decides where a declaration may stand or what it
//     means: the checker does (verify/reference). Only declarations that
//     name a version or schema node the CRD lacks, that contradict each
//     other, or that go past internal/limits, and annotations that do not
//     read, are errors, all of them reported, sorted.
//   - What this reading shares with the translator is named: decl's
//     parsers of the annotation and of declarations files, the table of
//     kinds, and the rule fingerprint of the generated-rules record
//     (decl.Fingerprint), by which CRD sets mut2cel's own rules aside. How
//     the declarations of the annotation, the files and --all-versions
//     come together it decides alone, and TestSharedDeclared* hold it to
//     the translator's reading (translate.DeclaredWith) on every CRD of
//     examples/ and testdata/ and on the corpus.
//   - A recorded rule is set aside once, where it is found unedited: at
//     its recorded node, else on the one node of its version that holds
//     it, else, for a renamed version, on the one node of the versions the
//     record does not name. An edited or copied rule is the author's.
package declread
