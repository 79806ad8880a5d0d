package translate

import (
	"encoding/json"
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
)

// state is what a CRD document says about an earlier translation: its
// mut2cel.io annotations, and the declarations still written inline.
type state struct {
	versions []string                 // version names in spec.versions order
	roots    map[string][]interface{} // version name -> document path of its schema
	decls    declarations             // the declarations annotation
	copies   declarations             // added to the annotation by Options.AllServedVersions
	files    declarations             // from Options.Declarations
	sources  map[string]decl.Source   // where each of files was written, by sourceKey
	rec      record                   // the generated-rules annotation
	hasDecls bool                     // the declarations annotation is present
	hasRec   bool                     // the generated-rules annotation is present
	inline   []inlineDecl
}

// inlineDecl is a declaration written in a version schema.
type inlineDecl struct {
	version, path, ext, value string
	node                      []interface{} // document path of the schema node
}

var annotationsPath = []interface{}{"metadata", "annotations"}

// annotationProblem reports a problem with one of the annotations, placed
// at the annotation's key.
func annotationProblem(name, format string, args ...interface{}) Problem {
	return Problem{
		Path:   appendPath(annotationsPath, name),
		Detail: fmt.Sprintf(format, args...),
		field:  "metadata.annotations[" + name + "]",
	}
}

func readState(doc map[string]interface{}) (*state, []Problem) {
	st := &state{roots: map[string][]interface{}{}, decls: declarations{}, rec: record{}}
	var problems []Problem
	versions, _ := nestedSlice(doc, "spec", "versions")
	for i, v := range versions {
		name, _ := nestedField(v, "name").(string)
		if _, dup := st.roots[name]; dup {
			problems = append(problems, Problem{Path: []interface{}{"spec", "versions", i, "name"}, Detail: fmt.Sprintf("Duplicate value: %q", name)})
			continue
		}
		st.versions = append(st.versions, name)
		root := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
		if raw, ok := nestedMap(doc, root...); ok {
			st.roots[name] = root
			st.readInline(name, raw, root)
		} else {
			st.roots[name] = nil
		}
	}
	annotations, _ := nestedMap(doc, annotationsPath...)
	if text, ok := st.annotation(annotations, annDeclarations, &problems); ok {
		st.hasDecls = true
		decls, err := parseDeclarations(text)
		if err != nil {
			problems = append(problems, annotationProblem(annDeclarations, "Invalid value: %v", err))
		}
		st.decls = decls
	}
	if text, ok := st.annotation(annotations, annGenerated, &problems); ok {
		st.hasRec = true
		rec, err := parseRecord(text)
		if err != nil {
			problems = append(problems, annotationProblem(annGenerated, "Invalid value: %v (mut2cel writes this annotation; delete it to keep the rules it lists as your own)", err))
		}
		st.rec = rec
	}
	return st, problems
}

// annotation returns the value of one annotation, if it is present and a
// string.
func (st *state) annotation(annotations map[string]interface{}, name string, problems *[]Problem) (string, bool) {
	v, ok := annotations[name]
	if !ok {
		return "", false
	}
	s, isString := v.(string)
	if !isString {
		*problems = append(*problems, annotationProblem(name, "Invalid value: annotations are strings, got %s", quoteValue(v)))
		return "", false
	}
	return s, true
}

// readInline collects the declarations written in one version schema, at
// the places where they are allowed (translate itself reports the others).
func (st *state) readInline(version string, raw map[string]interface{}, root []interface{}) {
	walkSchema(raw, root, func(path []interface{}, node map[string]interface{}) {
		for _, ext := range decl.Extensions {
			if v, ok := spelledValue(ext, node[ext]); ok {
				st.inline = append(st.inline, inlineDecl{
					version: version, path: renderDeclPath(path[len(root):]), ext: ext, value: v, node: path,
				})
			}
		}
	})
}

// spelledValue gives the value of a declaration as the annotation keeps it:
// the KEP values as they are, the update constraints in canonical order
// (decl.Constraints.String). A value that does not read is left to
// translate, which reports it at its place.
func spelledValue(ext string, v interface{}) (string, bool) {
	s, err := decl.Value(ext, v)
	return s, err == nil
}

// schemaValue is the inverse of spelledValue: the value written into a
// schema.
func schemaValue(ext, value string) interface{} {
	if ext != extUpdate {
		return value
	}
	c, err := parseSpelledUpdate(value)
	if err != nil {
		return value
	}
	list := []interface{}{}
	for _, name := range c.List() {
		list = append(list, name)
	}
	return list
}

// parseSpelledUpdate reads the canonical form spelledValue writes.
func parseSpelledUpdate(value string) (decl.Constraints, error) {
	var list []interface{}
	if err := yamlUnmarshalStrict(value, &list); err != nil {
		return 0, fmt.Errorf("must be a list of constraints, as in [NoUnset, NoModify], not %q", value)
	}
	return decl.ParseUpdate(list)
}

// walkSchema calls f on every schema node reachable through properties
// (in name order), items and additionalProperties, parents first.
func walkSchema(raw map[string]interface{}, path []interface{}, f func([]interface{}, map[string]interface{})) {
	f(path, raw)
	if props, ok := raw["properties"].(map[string]interface{}); ok {
		for _, name := range sortedKeys(props) {
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
