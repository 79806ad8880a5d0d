package batch

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/mut2cel/mut2cel/internal/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// Result is what became of one input.
type Result struct {
	Input    Input
	File     *manifest.File // nil when the input does not parse
	Diags    []Diagnostic
	Warnings []Diagnostic // what the user should know, bounds added among them; not a failure
}

// Output is the input's new contents; valid when there are no Diags.
func (r *Result) Output() []byte { return r.File.Bytes() }

// Changed reports whether the output differs from the input by a byte.
func (r *Result) Changed() bool { return r.File != nil && !bytes.Equal(r.Input.Data, r.File.Bytes()) }

// Translator translates one decoded CRD document: translate.Translate with
// the options of the run, or a stand-in in tests.
type Translator func(doc map[string]interface{}) (*translate.Result, error)

// Translate parses one input and translates each of its CRD documents in
// place. Other documents are left alone.
func Translate(in Input, tr Translator) *Result {
	r := &Result{Input: in}
	f, err := manifest.Parse(in.Name, in.Data)
	if err != nil {
		r.Diags = []Diagnostic{{Detail: err.Error()}} // already says where
		return r
	}
	r.File = f
	for _, d := range f.Docs {
		diags, warnings := translateDoc(in.Name, d, tr)
		r.Diags = append(r.Diags, diags...)
		r.Warnings = append(r.Warnings, warnings...)
	}
	return r
}

func translateDoc(file string, d *manifest.Document, tr Translator) (diags, warnings []Diagnostic) {
	value := d.Value()
	if value == nil || !translate.IsCRD(value) {
		return nil, nil
	}
	at := Diagnostic{File: file, Line: d.StartLine(), Doc: d.Index() + 1, Object: objectName(value)}
	res, err := tr(value)
	var terr *translate.Error
	switch {
	case errors.As(err, &terr):
		return problemDiags(at, d, terr.Problems), nil
	case err != nil:
		at.Detail = err.Error()
		return []Diagnostic{at}, nil
	}
	for _, b := range res.Bounds { // lines of the input, before the edits
		note := at
		note.Line, note.Field = d.Line(b.Path), translate.RenderPath(b.Path)
		note.Detail = fmt.Sprintf("added %s: %d so that the generated rules fit the CEL cost limits (docs/cost.md); the apiserver now rejects objects beyond it", b.Keyword, b.Value)
		warnings = append(warnings, note)
	}
	if err := d.Apply(res.Edits); err != nil {
		return []Diagnostic{{Detail: err.Error()}}, nil // already says where
	}
	for _, w := range problemDiags(at, d, res.Warnings) {
		w.Detail = "warning: " + w.Detail
		warnings = append(warnings, w)
	}
	return nil, warnings
}

func problemDiags(at Diagnostic, d *manifest.Document, problems []translate.Problem) []Diagnostic {
	var out []Diagnostic
	for _, p := range problems {
		diag := at
		diag.Line, diag.Field, diag.Detail = d.Line(p.Path), p.Field(), p.Detail
		out = append(out, diag)
	}
	return out
}
