package translate

import (
	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/edit"
)

// translateOwned translates a CRD that may have been translated before
// (docs/rewrite.md): it compiles the CRD, and has the CRD back end write
// the plan into the document as it is, so that unchanged owned rules stay
// where they are, with the mut2cel.io annotations that let a later run do
// the same.
func translateOwned(doc map[string]interface{}, opts Options) (*Result, error) {
	c, err := compile(doc, opts)
	if err != nil {
		return nil, err
	}
	out, err := crdrules.Write(c.st.crd, c.plan, c.rules, c.owned)
	if err != nil {
		return nil, internalError(err)
	}
	return &Result{Edits: out.Edits, Translated: out.Translated, Base: c.base, Warnings: sortProblems(c.warnings), Bounds: c.bounds,
		Generated: generatedRules(out.Fresh), Plan: c.plan, Rules: c.rules}, nil
}

// lostRuleWarnings word the fingerprints of the record that do not lead
// to exactly one rule (crdrules.FindOwned).
func lostRuleWarnings(lost []crdrules.LostRule) []Problem {
	var warnings []Problem
	for _, l := range lost {
		warnings = append(warnings, lostRuleWarning(l.Version, l.Path, l.Fingerprint, l.Hits))
	}
	return warnings
}

func lostRuleWarning(version, path, fp string, hits int) Problem {
	if hits == 0 {
		return annotationProblem(annGenerated, newProblem("", "version %s, %s: generated rule %s is no longer there as mut2cel wrote it (edited or deleted by hand, or its node is gone): an edited copy stays as your own rule, and the rules the declarations need are generated again", version, path, fp))
	}
	return annotationProblem(annGenerated, newProblem("", "version %s, %s: generated rule %s was found on %d nodes: all are kept as your own rules, and the rules the declarations need are generated again", version, path, fp, hits))
}

// generatedRules lists the rules a fresh translation adds: with the owned
// rules set aside, those are all the generated rules of the output.
func generatedRules(edits []edit.Edit) []GeneratedRule {
	var out []GeneratedRule
	for _, e := range edits {
		for _, r := range e.AddRules {
			out = append(out, GeneratedRule{Path: e.Path, Rule: r})
		}
	}
	return out
}

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
	st, problems := readState(doc)
	if st.crd.APIVersion != "apiextensions.k8s.io/v1" {
		return doc, nil
	}
	decls, p := gather(st, opts.Declarations, false)
	problems = append(problems, p...)
	if opts.AllServedVersions {
		decls = append(decls, spreadDeclarations(st, decls, opts).copies...)
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: sortProblems(problems)}
	}
	src, err := crdrules.Declared(st.crd, crdrules.FindOwned(st.crd), decls)
	if err != nil {
		return nil, internalError(err)
	}
	return src, nil
}

// Annotated reports whether doc keeps declarations in the
// mut2cel.io/declarations annotation (Declared puts them back inline).
func Annotated(doc map[string]interface{}) bool {
	_, ok := readCRD(doc).Annotations[annDeclarations]
	return ok
}

// Rewritten reports whether doc is a CRD that translate rewrote: it
// carries the record of the rules mut2cel generated. A CRD whose
// declarations annotation was written by hand, and never translated, has
// no record: its rules are not mut2cel's yet, and checking them as they
// are would report every declaration as missed.
func Rewritten(doc map[string]interface{}) bool {
	_, rec := readCRD(doc).Annotations[annGenerated]
	return Annotated(doc) && rec
}
