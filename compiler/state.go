package compiler

import (
	"encoding/json"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// state is the compiler's view of the CRD model (crd.CRD): the versions
// by name, first of each name, and where each declared node is. The
// model holds everything else, the mut2cel.io annotations as read among
// it.
type state struct {
	crd      *crd.CRD // the document's model
	name     string   // metadata.name
	versions []string // version names in spec.versions order, first of each
}

// withSchema is the version named name, nil when the CRD has no such
// version or it has no schema: nothing can be declared there.
func (st *state) withSchema(name string) *crd.Version {
	if v, ok := st.crd.Version(name); ok && v.Raw != nil {
		return v
	}
	return nil
}

// annotation is the mut2cel.io/declarations annotation as the model read
// it.
func (st *state) annotation() declarations { return declarations(st.crd.Own.Declarations) }

// node is the document path of the schema node d declares.
func (st *state) node(d decl.Declaration) []interface{} {
	node, _ := st.crd.Node(crd.LocationOf(d))
	return node
}

// readState takes the model c and reports what it found wrong with the
// versions and mut2cel's annotations.
func readState(c *crd.CRD) (*state, []Problem) {
	st := &state{crd: c}
	st.name, st.versions = st.crd.Name, st.crd.VersionNames()
	var problems []Problem
	for _, v := range st.crd.Versions {
		if !st.crd.First(v) {
			problems = append(problems, NewProblem(Duplicate, "%q", v.Name).At(v.NamePath()))
		}
	}
	problems = append(problems, misspeltAnnotations(st.crd.Annotations)...)
	for _, e := range st.crd.Own.Errors {
		problems = append(problems, annotationErrorProblem(e))
	}
	return st, problems
}

// annotationErrorProblem words one of mut2cel's annotations that does not
// read.
func annotationErrorProblem(e *crd.AnnotationError) Problem {
	switch {
	case e.NotString:
		return annotationProblem(e.Name, NewProblem(Invalid, "annotations are strings, got %s", quoteValue(e.Value)))
	case e.Name == annGenerated:
		return annotationProblem(e.Name, NewProblem(Invalid, "%v (mut2cel writes this annotation; delete it to keep the rules it lists as your own)", e.Err))
	}
	return annotationProblem(e.Name, NewProblem(Invalid, "%v", e.Err))
}

// pathKey makes a document path usable as a map key.
func pathKey(path []interface{}) string {
	data, _ := json.Marshal(path)
	return string(data)
}
