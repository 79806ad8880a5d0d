package translate

import (
	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/compiler"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// Declared returns the CRD as its author declared it: the declarations
// kept in the mut2cel.io/declarations annotation put back inline in the
// schema, next to any written there, and the rules mut2cel owns and its
// annotations taken away. A CRD translate never rewrote is returned as it
// is. Problems with the annotations are an *Error.
func Declared(doc map[string]interface{}) (map[string]interface{}, error) {
	return DeclaredWith(doc, Options{})
}

// DeclaredWith is Declared with the declarations of opts written inline
// too: those of opts.Declarations that name the CRD and, with
// opts.AllServedVersions, the copies for other served versions. Nothing
// is compiled, so a declaration no rule can express is written as it is;
// only declarations that name a version or node the CRD lacks, or that
// contradict each other, are an *Error. Where a declaration may stand is
// left to the reader of the result (verify's reference checker).
func DeclaredWith(doc map[string]interface{}, opts Options) (map[string]interface{}, error) {
	c := readCRD(doc)
	if c.APIVersion != "apiextensions.k8s.io/v1" {
		return doc, nil
	}
	decls, problems := compiler.Declarations(c, opts.compiler())
	if len(problems) > 0 {
		return nil, &Error{Problems: compiler.SortProblems(problems)}
	}
	src, err := crdrules.Declared(c, crdrules.FindOwned(c), decls)
	if err != nil {
		return nil, &Error{Problems: []Problem{compiler.NewProblem(Internal, "%v", err)}}
	}
	return src, nil
}

// Annotated reports whether doc keeps declarations in the
// mut2cel.io/declarations annotation (Declared puts them back inline).
func Annotated(doc map[string]interface{}) bool {
	_, ok := readCRD(doc).Annotations[decl.AnnotationDeclarations]
	return ok
}

// Rewritten reports whether doc is a CRD that translate rewrote: it
// carries the record of the rules mut2cel generated. A CRD whose
// declarations annotation was written by hand, and never translated, has
// no record: its rules are not mut2cel's yet, and checking them as they
// are would report every declaration as missed.
func Rewritten(doc map[string]interface{}) bool {
	_, rec := readCRD(doc).Annotations[decl.AnnotationGenerated]
	return Annotated(doc) && rec
}

// Target is the Kubernetes version the rules of doc are made for with
// opts: what Translate and Compile make them for. Problems reading the
// version are an *Error.
func Target(doc map[string]interface{}, opts Options) (KubeVersion, error) {
	return compiler.Target(readCRD(doc), opts.compiler())
}

// CheckSpelling reports, as an *Error, every key of doc's version schemas
// that misspells one of mut2cel's extensions, and every annotation named
// like mut2cel's that is not one of them (compiler.CheckSpelling). Nil
// when there is none.
func CheckSpelling(doc map[string]interface{}) error {
	return compiler.CheckSpelling(readCRD(doc))
}

// readCRD reads the model of doc, which Translate's callers have checked
// is a CRD document (IsCRD).
func readCRD(doc map[string]interface{}) *crd.CRD {
	c, err := crd.Read(doc)
	if err != nil {
		return &crd.CRD{}
	}
	return c
}
