package crd

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// Version is one entry of spec.versions.
type Version struct {
	Index   int // its place in spec.versions
	Name    string
	Served  bool
	Storage bool
	// Raw is the openAPIV3Schema as decoded, nil when the version has
	// none. It is the document's own map: edits to it are edits to the
	// document.
	Raw map[string]interface{}

	converted  bool
	props      *apiextensionsv1.JSONSchemaProps
	structural *schema.Structural
	tree       *Node
	err        error
}

func readVersion(i int, e interface{}) *Version {
	m, _ := e.(map[string]interface{})
	v := &Version{Index: i}
	v.Name, _ = m["name"].(string)
	v.Served, _ = m["served"].(bool)
	v.Storage, _ = m["storage"].(bool)
	sch, _ := m["schema"].(map[string]interface{})
	v.Raw, _ = sch[RootName].(map[string]interface{})
	return v
}

// Path is the document path of the version, spec.versions[i].
func (v *Version) Path() []interface{} { return []interface{}{"spec", "versions", v.Index} }

// Field is the version's place as the apiserver's validation names it.
func (v *Version) Field() *field.Path { return VersionField(v.Index) }

// VersionField is spec.versions[i] as the apiserver's validation names
// it, for readers of the typed CRD.
func VersionField(i int) *field.Path { return field.NewPath("spec", "versions").Index(i) }

// VersionOfField is the inverse of VersionField: the index of the version
// a field path the apiserver reports lies in, as 2 for
// spec.versions[2].schema.openAPIV3Schema, and false for a path outside
// spec.versions.
func VersionOfField(f string) (int, bool) {
	var i int
	_, err := fmt.Sscanf(f, "spec.versions[%d]", &i)
	return i, err == nil
}

// SchemaField is the openAPIV3Schema of spec.versions[i] as the
// apiserver's validation names it.
func SchemaField(i int) *field.Path { return VersionField(i).Child("schema", RootName) }

// NamePath is the document path of the version's name.
func (v *Version) NamePath() []interface{} { return append(v.Path(), "name") }

// Root is the document path of the version's openAPIV3Schema; the paths
// of schema nodes extend it.
func (v *Version) Root() []interface{} { return SchemaRoot(v.Index) }

// RootName is the key of a version's schema in spec.versions[i].schema,
// and the first step of the paths the apiserver prints for a schema's own
// nodes.
const RootName = "openAPIV3Schema"

// RootField is the root of the field paths of a version schema's own
// nodes, as the apiserver's schema validation names them.
func RootField() *field.Path { return field.NewPath(RootName) }

// SchemaRoot is the document path of the openAPIV3Schema of
// spec.versions[i]: the one place that spells it.
func SchemaRoot(i int) []interface{} {
	return []interface{}{"spec", "versions", i, "schema", RootName}
}

// Split is the inverse of SchemaRoot: the index of the version and the
// schema-relative path of a document path at or below a version's
// schema root, and false for any other path.
func Split(path []interface{}) (int, []interface{}, bool) {
	root := SchemaRoot(0)
	if len(path) < len(root) {
		return 0, nil, false
	}
	i, ok := path[2].(int)
	for j, step := range root {
		if j != 2 && path[j] != step {
			ok = false
		}
	}
	if !ok {
		return 0, nil, false
	}
	return i, path[len(root):], true
}

// Node is the document path of the schema node p names, and whether the
// version's schema has it.
func (v *Version) Node(p decl.Path) ([]interface{}, bool) {
	rel, ok := p.Resolve(v.Raw)
	if !ok {
		return nil, false
	}
	return append(v.Root(), rel...), true
}

// Schema is the version's schema in the apiserver's v1 type, without the
// declarations, which that type does not know. It is converted once; a
// version without a schema has a nil one and no error.
func (v *Version) Schema() (*apiextensionsv1.JSONSchemaProps, error) {
	v.convert()
	return v.props, v.err
}

// Structural is the version's schema in the apiserver's structural
// model, validated as the apiserver validates it; nil without a schema.
func (v *Version) Structural() (*schema.Structural, error) {
	v.convert()
	return v.structural, v.err
}

func (v *Version) convert() {
	if v.converted || v.Raw == nil {
		return
	}
	v.converted = true
	props, err := TypedSchema(v.Raw)
	if err != nil {
		v.err = &SchemaError{Version: v.Name, Path: v.Root(), Err: err}
		return
	}
	v.props = props
	s, err := kube.Structural(props)
	if err != nil {
		v.err = &SchemaError{Version: v.Name, Path: v.Root(), NotStructural: true, Err: err}
		return
	}
	v.structural = s
}

// SchemaError is a version schema the apiserver's types cannot hold, or
// that is not structural.
type SchemaError struct {
	Version string
	Path    []interface{} // the document path of the schema
	// NotStructural is set when the schema decodes but is not structural.
	NotStructural bool
	Err           error
}

func (e *SchemaError) Error() string {
	if e.NotStructural {
		return fmt.Sprintf("%s: version %s: the schema is not structural: %v", edit.Render(e.Path), e.Version, e.Err)
	}
	return fmt.Sprintf("%s: version %s: %v", edit.Render(e.Path), e.Version, e.Err)
}

func (e *SchemaError) Unwrap() error { return e.Err }
