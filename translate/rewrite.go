package translate

import (
	"reflect"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
)

// translateOwned translates a CRD that may have been translated before
// (docs/rewrite.md): it compiles the CRD, and returns the edits from the
// document as it is to the new translation, so that unchanged owned rules
// stay where they are, with the mut2cel.io annotations that let a later
// run do the same.
func translateOwned(doc map[string]interface{}, opts Options) (*Result, error) {
	c, err := compile(doc, opts)
	if err != nil {
		return nil, err
	}
	edits := netEdits(doc, c.edits, c.owned)
	edits = append(edits, withTargetRecord(annotationEdits(c.st, c.decls, generatedRecord(c.edits, c.st)), c.st, c.decls, KubeVersion(c.plan.KubeVersion))...)
	out, err := edit.Apply(doc, edits)
	if err != nil {
		return nil, internalError(err)
	}
	return &Result{Edits: edits, Translated: out, Base: c.base, Warnings: sortProblems(c.warnings), Bounds: c.bounds,
		Generated: generatedRules(c.edits), Plan: c.plan}, nil
}

// inlineRemovals are the edits that take the declarations written in the
// schemas out.
func inlineRemovals(st *state, decls []decl.Declaration) []edit.Edit {
	var edits []edit.Edit
	for _, d := range decls {
		if d.Origin.Kind == decl.InSchema {
			edits = append(edits, edit.Edit{Path: st.node(d), Remove: []string{d.Ext}})
		}
	}
	return edits
}

// setAside takes away the rules mut2cel owns and its two annotations, so
// that translate sees the rules the user wrote and nothing else. Without
// the inline declarations as well, what is left is the CRD as it was
// before anyone declared anything (Result.Base).
func setAside(st *state, owned []ownedRule) []edit.Edit {
	edits := ownedEdits(owned)
	if e, ok := dropAnnotations(st); ok {
		edits = append(edits, e)
	}
	return edits
}

// dropAnnotations removes the mut2cel.io annotations, and the annotations
// mapping when nothing else is in it.
func dropAnnotations(st *state) (edit.Edit, bool) {
	var names []string
	if st.hasDecls {
		names = append(names, annDeclarations)
	}
	if st.hasRec {
		names = append(names, annGenerated)
	}
	if _, ok := st.crd.Annotations[annKubeVersion]; ok {
		names = append(names, annKubeVersion) // target.go
	}
	if len(names) == 0 {
		return edit.Edit{}, false
	}
	if len(st.crd.Annotations) == len(names) {
		return edit.Edit{Path: []interface{}{"metadata"}, Remove: []string{"annotations"}}, true
	}
	return edit.Edit{Path: annotationsPath, Remove: names}, true
}

// writeInline writes into the schemas of src every declaration that is not
// written there already, as the user would have written it in the schema.
func writeInline(src map[string]interface{}, st *state, decls []decl.Declaration) {
	for _, d := range decls {
		if d.Origin.Kind != decl.InSchema {
			m, _ := nestedMap(src, st.node(d)...)
			m[d.Ext] = schemaValue(d.Ext, d.Value)
		}
	}
}

// annotationEdits writes the declarations and the record, each only when
// its content changed, so that a hand-formatted annotation stays as it is.
// Without declarations both annotations go.
func annotationEdits(st *state, all []decl.Declaration, rec record) []edit.Edit {
	decls := declarations{}
	for _, d := range all {
		decls.add(d.Version, d.Path.String(), d.Ext, d.Value)
	}
	if len(decls) == 0 {
		if e, ok := dropAnnotations(st); ok {
			return []edit.Edit{e}
		}
		return nil
	}
	e := edit.Edit{Path: annotationsPath, Create: true}
	if !st.hasDecls || !reflect.DeepEqual(decls, st.annotation) {
		e.Set = append(e.Set, edit.Setting{Key: annDeclarations, Value: decls.render(st.versions)})
	}
	switch {
	case len(rec) == 0 && st.hasRec:
		e.Remove = []string{annGenerated}
	case len(rec) > 0 && (!st.hasRec || !reflect.DeepEqual(rec, st.rec)):
		e.Set = append(e.Set, edit.Setting{Key: annGenerated, Value: rec.render(st.versions)})
	}
	if len(e.Set) == 0 && len(e.Remove) == 0 {
		return nil
	}
	return []edit.Edit{e}
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
	if v, _ := doc["apiVersion"].(string); v != "apiextensions.k8s.io/v1" {
		return doc, nil
	}
	st, problems := readState(doc)
	decls, p := gather(doc, st, opts.Declarations, false)
	problems = append(problems, p...)
	if opts.AllServedVersions {
		decls = append(decls, spreadDeclarations(st, decls, opts).copies...)
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: sortProblems(problems)}
	}
	owned, _ := findOwned(doc, st)
	src, err := edit.Apply(doc, setAside(st, owned))
	if err != nil {
		return nil, internalError(err)
	}
	writeInline(src, st, decls)
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
