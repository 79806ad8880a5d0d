package batch

import (
	"errors"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// InputCRD is one CustomResourceDefinition document of an input.
type InputCRD struct {
	// At locates the document for messages: set Detail (and Field) on a
	// copy.
	At    Diagnostic
	Value map[string]interface{}
	doc   *manifest.Document
}

// Diags are the diagnostics of err, an error about the CRD, as EachCRD
// reports what its visit returns: each problem of a *translate.Error at
// its own line, any other error at the document.
func (c InputCRD) Diags(err error) []Diagnostic { return errorDiags(c.At, c.doc, err) }

// Name is the CRD's metadata.name.
func (c InputCRD) Name() string {
	model, err := crd.Read(c.Value)
	if err != nil {
		return ""
	}
	return model.Name
}

// CRDs parses the inputs and returns their CRD documents in input order,
// the census of all their documents, and a Diagnostic for each input that
// does not parse.
func CRDs(inputs []Input) ([]InputCRD, *Census, []Diagnostic) {
	var out []InputCRD
	census := &Census{}
	var diags []Diagnostic
	for _, in := range inputs {
		f, more := EachCRD(in, func(_ *manifest.Document, crd InputCRD) error {
			out = append(out, crd)
			return nil
		})
		census.Add(in.Name, f)
		diags = append(diags, more...)
	}
	return out, census, diags
}

// EachCRD is the document loop of every command: it parses in and calls
// visit with each of its CRD documents, in order; other manifests are
// left alone. A document that is not a manifest, a list or a string where
// a mapping should be, is a diagnostic: a file given by mistake, as
// /etc/passwd, must not pass for one without CRDs. What visit returns
// becomes diagnostics: each problem of a *translate.Error at its own
// line, any other error at the document. It returns the parsed file, nil
// with one diagnostic when in does not parse.
func EachCRD(in Input, visit func(d *manifest.Document, crd InputCRD) error) (*manifest.File, []Diagnostic) {
	f, err := manifest.Parse(in.Name, in.Data)
	if err != nil {
		return nil, errorDiags(Diagnostic{File: in.Name}, nil, err)
	}
	var diags []Diagnostic
	for _, d := range f.Docs {
		if what := d.NotMapping(); what != "" {
			diags = append(diags, Diagnostic{File: in.Name, Line: d.Line(nil), Doc: d.Index() + 1, Detail: notManifest(what)})
			continue
		}
		value := d.Value()
		if value == nil || !translate.IsCRD(value) {
			continue
		}
		at := Diagnostic{File: in.Name, Line: d.StartLine(), Doc: d.Index() + 1, Object: objectName(value)}
		diags = append(diags, errorDiags(at, d, visit(d, InputCRD{At: at, Value: value, doc: d}))...)
	}
	return f, diags
}

// notManifest says that a document is what, not a manifest.
func notManifest(what string) string {
	return "not a Kubernetes manifest: the document is " + what + ", where a manifest is a mapping (apiVersion: ..., kind: ...)"
}

// errorDiags gives the diagnostics of what visiting a document (at, d)
// returned, or of reading the file (at, nil d): the problems of a
// *translate.Error each at its own line, the diagnostics of an error that
// places them itself (manifest's) as they are, and any other error at the
// document or file.
func errorDiags(at Diagnostic, d *manifest.Document, err error) []Diagnostic {
	var terr *translate.Error
	if err == nil {
		return nil
	}
	if d != nil && errors.As(err, &terr) {
		return problemDiags(at, d, terr.Problems)
	}
	if placed, ok := diag.As(err); ok {
		return placed
	}
	at.Detail = err.Error()
	return []Diagnostic{at}
}
