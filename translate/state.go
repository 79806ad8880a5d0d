package translate

import (
	"encoding/json"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// state is what a CRD document says about itself and an earlier
// translation: its name, versions and mut2cel.io annotations.
type state struct {
	crd        *crd.CRD                 // the document's model
	name       string                   // metadata.name
	versions   []string                 // version names in spec.versions order
	roots      map[string][]interface{} // version name -> document path of its schema
	byName     map[string]*crd.Version  // version name -> its first entry
	annotation declarations             // the declarations annotation, as read
	rec        record                   // the generated-rules annotation
	hasDecls   bool                     // the declarations annotation is present
	hasRec     bool                     // the generated-rules annotation is present
	// nodes holds the document path of the schema node of every gathered
	// declaration, by declKey.
	nodes map[string][]interface{}
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

// raw is the decoded schema of the version named name, nil when it has
// none or the CRD has no such version.
func (st *state) raw(name string) map[string]interface{} {
	if v := st.byName[name]; v != nil {
		return v.Raw
	}
	return nil
}

// first reports whether v, of this document or a copy of it, is the
// first version of its name: readState reports the others as duplicates
// and nothing else reads them.
func (st *state) first(v *crd.Version) bool {
	w := st.byName[v.Name]
	return w != nil && w.Index == v.Index
}

// node is the document path of the schema node d declares.
func (st *state) node(d decl.Declaration) []interface{} { return st.nodes[declKey(d)] }

func readState(doc map[string]interface{}) (*state, []Problem) {
	st := &state{crd: readCRD(doc), roots: map[string][]interface{}{}, byName: map[string]*crd.Version{},
		annotation: declarations{}, rec: record{}, nodes: map[string][]interface{}{}}
	st.name = st.crd.Name
	var problems []Problem
	for _, v := range st.crd.Versions {
		if _, dup := st.roots[v.Name]; dup {
			problems = append(problems, newProblem(Duplicate, "%q", v.Name).At(v.NamePath()))
			continue
		}
		st.versions = append(st.versions, v.Name)
		st.byName[v.Name] = v
		st.roots[v.Name] = nil
		if v.Raw != nil {
			st.roots[v.Name] = v.Root()
		}
	}
	annotations := st.crd.Annotations
	problems = append(problems, misspeltAnnotations(annotations)...)
	if text, ok := st.annotationText(annotations, annDeclarations, &problems); ok {
		st.hasDecls = true
		decls, err := parseDeclarations(text)
		if err != nil {
			problems = append(problems, annotationProblem(annDeclarations, newProblem(Invalid, "%v", err)))
		}
		st.annotation = decls
	}
	if text, ok := st.annotationText(annotations, annGenerated, &problems); ok {
		st.hasRec = true
		rec, err := parseRecord(text)
		if err != nil {
			problems = append(problems, annotationProblem(annGenerated, newProblem(Invalid, "%v (mut2cel writes this annotation; delete it to keep the rules it lists as your own)", err)))
		}
		st.rec = rec
	}
	return st, problems
}

// annotationText returns the value of one annotation, if it is present and a
// string.
func (st *state) annotationText(annotations map[string]interface{}, name string, problems *[]Problem) (string, bool) {
	v, ok := annotations[name]
	if !ok {
		return "", false
	}
	s, isString := v.(string)
	if !isString {
		*problems = append(*problems, annotationProblem(name, newProblem(Invalid, "annotations are strings, got %s", quoteValue(v))))
		return "", false
	}
	return s, true
}

// schemaValue is the value written into a schema for a declaration's
// value (decl.Kind.Write).
func schemaValue(ext, value string) interface{} {
	if k, ok := decl.KindNamed(ext); ok {
		return k.Write(value)
	}
	return value
}

// walkSchema calls f on every schema node reachable through properties
// (in name order), items and additionalProperties, parents first.
func walkSchema(raw map[string]interface{}, path []interface{}, f func([]interface{}, map[string]interface{})) {
	f(path, raw)
	if props, ok := raw["properties"].(map[string]interface{}); ok {
		for _, name := range sortedNames(props) {
			if child, ok := props[name].(map[string]interface{}); ok {
				walkSchema(child, appendPath(path, "properties", name), f)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if child, ok := raw[key].(map[string]interface{}); ok {
			walkSchema(child, appendPath(path, key), f)
		}
	}
}

// pathKey makes a document path usable as a map key.
func pathKey(path []interface{}) string {
	data, _ := json.Marshal(path)
	return string(data)
}
