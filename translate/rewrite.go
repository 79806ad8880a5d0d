package translate

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/mut2cel/mut2cel/decl"
)

// translateOwned translates a CRD that may have been translated before
// (docs/rewrite.md): it takes the declarations from the schema and from
// the declarations annotation, sets aside the rules it owns, translates,
// and returns the edits from the document as it is to the new
// translation, so that unchanged owned rules stay where they are.
func translateOwned(doc map[string]interface{}, opts Options) (*Result, error) {
	if v, _ := doc["apiVersion"].(string); v != "apiextensions.k8s.io/v1" {
		return translate(doc, opts)
	}
	st, problems := readState(doc)
	if len(problems) > 0 {
		sortProblems(problems)
		return nil, &Error{Problems: problems}
	}
	// A declaration of a file that does not fit the CRD is left out, and
	// the others are translated, so that one run reports every problem.
	fileProblems := st.addFiles(doc, opts.Declarations)
	owned, warnings := findOwned(doc, st)
	sp := spreadDeclarations(doc, st, opts)
	st.copies = sp.copies
	warnings = append(warnings, sp.warnings...)
	src := deepCopy(doc)
	ApplyEdits(src, setAside(doc, st, owned))
	base := deepCopy(src)
	for _, d := range st.inline {
		ApplyEdits(base, []Edit{{Path: d.node, Remove: []string{d.ext}}})
	}
	injected, problems := injectDeclarations(src, st)
	if problems = append(problems, sp.problems...); len(problems) > 0 {
		problems = append(problems, fileProblems...)
		sortProblems(problems)
		return nil, &Error{Problems: problems}
	}
	res, err := translate(src, opts)
	var terr *Error
	switch {
	case errors.As(err, &terr):
		problems := append(annotationProblems(sp.copiedProblems(terr.Problems), injected), fileProblems...)
		sortProblems(problems)
		return nil, &Error{Problems: problems}
	case err != nil:
		return nil, err
	case len(fileProblems) > 0:
		sortProblems(fileProblems)
		return nil, &Error{Problems: fileProblems}
	}
	edits := netEdits(doc, res.Edits, owned)
	edits = append(edits, annotationEdits(doc, st, generatedRecord(res.Edits, st))...)
	out := deepCopy(doc)
	ApplyEdits(out, edits)
	warnings = append(warnings, res.Warnings...)
	sortProblems(warnings)
	return &Result{Edits: edits, Translated: out, Base: base, Warnings: warnings, Bounds: res.Bounds, Generated: generatedRules(res.Edits)}, nil
}

// setAside takes away the rules mut2cel owns and its two annotations, so
// that translate sees the rules the user wrote and nothing else. Without
// the inline declarations as well, what is left is the CRD as it was
// before anyone declared anything (Result.Base).
func setAside(doc map[string]interface{}, st *state, owned []ownedRule) []Edit {
	edits := ownedEdits(owned)
	if e, ok := dropAnnotations(doc, st); ok {
		edits = append(edits, e)
	}
	return edits
}

// dropAnnotations removes the mut2cel.io annotations, and the annotations
// mapping when nothing else is in it.
func dropAnnotations(doc map[string]interface{}, st *state) (Edit, bool) {
	var names []string
	if st.hasDecls {
		names = append(names, annDeclarations)
	}
	if st.hasRec {
		names = append(names, annGenerated)
	}
	if len(names) == 0 {
		return Edit{}, false
	}
	if annotations, _ := nestedMap(doc, annotationsPath...); len(annotations) == len(names) {
		return Edit{Path: []interface{}{"metadata"}, Remove: []string{"annotations"}}, true
	}
	return Edit{Path: annotationsPath, Remove: names}, true
}

// injectDeclarations writes the declarations of the annotation into the
// schemas of src, where translate reads them. It returns, by path of the
// written key, where each came from.
func injectDeclarations(src map[string]interface{}, st *state) (map[string]injection, []Problem) {
	injected := map[string]injection{}
	inline := map[string]string{}
	for _, d := range st.inline {
		inline[pathKey(appendPath(d.node, d.ext))] = d.value
	}
	var problems []Problem
	annotated := st.annotated()
	for _, v := range orderVersions(st.versions, annotated) {
		root, exists := st.roots[v]
		if !exists || root == nil {
			problems = append(problems, annotationProblem(annDeclarations, "Invalid value: version %s: the CRD has no version of this name with a schema (rename the key if the version was renamed)", v))
			continue
		}
		raw, _ := nestedMap(src, root...)
		for _, p := range sortedNames(annotated[v]) {
			steps, _ := decl.ParsePath(p) // checked by parseDeclarations
			node, ok := resolveDeclPath(raw, root, steps)
			if !ok {
				problems = append(problems, annotationProblem(annDeclarations, "Invalid value: version %s, %s: no such node in the schema (update the path if the field moved, or delete the declaration)", v, p))
				continue
			}
			m, _ := nestedMap(src, node...)
			for _, ext := range sortedNames(annotated[v][p]) {
				value, key := annotated[v][p][ext], pathKey(appendPath(node, ext))
				if in, ok := inline[key]; ok && in != value {
					problems = append(problems, Problem{Path: appendPath(node, ext), Detail: fmt.Sprintf("Invalid value: %q: the %s annotation declares %q here: keep one of the two", in, annDeclarations, value)})
					continue
				}
				m[ext] = schemaValue(ext, value)
				injected[key] = injection{fmt.Sprintf("version %s, %s: %s", v, p, ext), st.sources[sourceKey(v, p, ext)]}
			}
		}
	}
	return injected, problems
}

// injection says where a declaration written into a schema came from: the
// annotation, or a declarations file (source).
type injection struct {
	where  string
	source decl.Source
}

// annotationProblems moves translate's problems about declarations that
// came from the annotation to the annotation.
func annotationProblems(problems []Problem, injected map[string]injection) []Problem {
	out := make([]Problem, len(problems))
	for i, p := range problems {
		out[i] = p
		in, ok := injected[pathKey(p.Path)]
		switch {
		case !ok || p.field != "":
		case in.source.File != "":
			out[i].Source, out[i].Detail = in.source, in.where+": "+p.Detail
		default:
			out[i] = annotationProblem(annDeclarations, "%s: %s", in.where, p.Detail)
		}
	}
	sortProblems(out)
	return out
}

// annotationEdits writes the declarations and the record, each only when
// its content changed, so that a hand-formatted annotation stays as it is.
// Without declarations both annotations go.
func annotationEdits(doc map[string]interface{}, st *state, rec record) []Edit {
	decls := declarations{}
	for v, paths := range st.annotated() {
		for p, exts := range paths {
			for ext, value := range exts {
				decls.add(v, p, ext, value)
			}
		}
	}
	for _, d := range st.inline {
		decls.add(d.version, d.path, d.ext, d.value)
	}
	if len(decls) == 0 {
		if e, ok := dropAnnotations(doc, st); ok {
			return []Edit{e}
		}
		return nil
	}
	e := Edit{Path: annotationsPath, Create: true}
	if !st.hasDecls || !reflect.DeepEqual(decls, st.decls) {
		e.Set = append(e.Set, Setting{Key: annDeclarations, Value: decls.render(st.versions)})
	}
	switch {
	case len(rec) == 0 && st.hasRec:
		e.Remove = []string{annGenerated}
	case len(rec) > 0 && (!st.hasRec || !reflect.DeepEqual(rec, st.rec)):
		e.Set = append(e.Set, Setting{Key: annGenerated, Value: rec.render(st.versions)})
	}
	if len(e.Set) == 0 && len(e.Remove) == 0 {
		return nil
	}
	return []Edit{e}
}

// generatedRules lists the rules a fresh translation adds: with the owned
// rules set aside, those are all the generated rules of the output.
func generatedRules(edits []Edit) []GeneratedRule {
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
	if v, _ := doc["apiVersion"].(string); v != "apiextensions.k8s.io/v1" {
		return doc, nil
	}
	st, problems := readState(doc)
	if len(problems) > 0 {
		sortProblems(problems)
		return nil, &Error{Problems: problems}
	}
	owned, _ := findOwned(doc, st)
	src := deepCopy(doc)
	ApplyEdits(src, setAside(doc, st, owned))
	if _, problems := injectDeclarations(src, st); len(problems) > 0 {
		sortProblems(problems)
		return nil, &Error{Problems: problems}
	}
	return src, nil
}

// Annotated reports whether doc keeps declarations in the
// mut2cel.io/declarations annotation (Declared puts them back inline).
func Annotated(doc map[string]interface{}) bool {
	meta, _ := doc["metadata"].(map[string]interface{})
	annotations, _ := meta["annotations"].(map[string]interface{})
	_, ok := annotations[annDeclarations]
	return ok
}

// Rewritten reports whether doc is a CRD that translate rewrote: it
// carries the record of the rules mut2cel generated. A CRD whose
// declarations annotation was written by hand, and never translated, has
// no record: its rules are not mut2cel's yet, and checking them as they
// are would report every declaration as missed.
func Rewritten(doc map[string]interface{}) bool {
	meta, _ := doc["metadata"].(map[string]interface{})
	annotations, _ := meta["annotations"].(map[string]interface{})
	_, rec := annotations[annGenerated]
	return Annotated(doc) && rec
}
