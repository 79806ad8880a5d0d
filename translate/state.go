package translate

import (
	"encoding/json"

	"github.com/mut2cel/mut2cel/decl"
)

// state is what a CRD document says about itself and an earlier
// translation: its name, versions and mut2cel.io annotations.
type state struct {
	name       string                   // metadata.name
	versions   []string                 // version names in spec.versions order
	roots      map[string][]interface{} // version name -> document path of its schema
	annotation declarations             // the declarations annotation, as read
	rec        record                   // the generated-rules annotation
	hasDecls   bool                     // the declarations annotation is present
	hasRec     bool                     // the generated-rules annotation is present
	// nodes holds the document path of the schema node of every gathered
	// declaration, by declKey.
	nodes map[string][]interface{}
}

// node is the document path of the schema node d declares.
func (st *state) node(d decl.Declaration) []interface{} { return st.nodes[declKey(d)] }

func readState(doc map[string]interface{}) (*state, []Problem) {
	st := &state{roots: map[string][]interface{}{}, annotation: declarations{}, rec: record{}, nodes: map[string][]interface{}{}}
	st.name, _ = nestedField(doc["metadata"], "name").(string)
	var problems []Problem
	versions, _ := nestedSlice(doc, "spec", "versions")
	for i, v := range versions {
		name, _ := nestedField(v, "name").(string)
		if _, dup := st.roots[name]; dup {
			problems = append(problems, newProblem(Duplicate, "%q", name).at([]interface{}{"spec", "versions", i, "name"}))
			continue
		}
		st.versions = append(st.versions, name)
		root := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
		if _, ok := nestedMap(doc, root...); ok {
			st.roots[name] = root
		} else {
			st.roots[name] = nil
		}
	}
	annotations, _ := nestedMap(doc, annotationsPath...)
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

// schemaValue is the inverse of spelledValue: the value written into a
// schema.
func schemaValue(ext, value string) interface{} {
	if ext != extUpdate {
		return value
	}
	c, err := decl.ParseConstraints(value)
	if err != nil {
		return value
	}
	list := []interface{}{}
	for _, name := range c.List() {
		list = append(list, name)
	}
	return list
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

func nestedField(v interface{}, key string) interface{} {
	m, _ := v.(map[string]interface{})
	return m[key]
}

// pathKey makes a document path usable as a map key.
func pathKey(path []interface{}) string {
	data, _ := json.Marshal(path)
	return string(data)
}
