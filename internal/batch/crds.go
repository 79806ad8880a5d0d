package batch

import (
	"github.com/mut2cel/mut2cel/internal/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// CRD is one CustomResourceDefinition document of an input.
type CRD struct {
	// At locates the document for messages: set Detail (and Field) on a
	// copy.
	At    Diagnostic
	Value map[string]interface{}
}

// Name is the CRD's metadata.name.
func (c CRD) Name() string {
	meta, _ := c.Value["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	return name
}

// CRDs parses the inputs and returns their CRD documents in input order,
// and a Diagnostic for each input that does not parse.
func CRDs(inputs []Input) ([]CRD, []Diagnostic) {
	var out []CRD
	var diags []Diagnostic
	for _, in := range inputs {
		f, err := manifest.Parse(in.Name, in.Data)
		if err != nil {
			diags = append(diags, Diagnostic{Detail: err.Error()}) // already says where
			continue
		}
		for _, d := range f.Docs {
			value := d.Value()
			if value == nil || !translate.IsCRD(value) {
				continue
			}
			at := Diagnostic{File: in.Name, Line: d.StartLine(), Doc: d.Index() + 1, Object: objectName(value)}
			out = append(out, CRD{At: at, Value: value})
		}
	}
	return out, diags
}
