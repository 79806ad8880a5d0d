package batch

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// Result is what became of one input.
type Result struct {
	Input    Input
	File     *manifest.File // nil when the input does not parse
	Diags    []Diagnostic
	Warnings []Diagnostic // what the user should know, bounds added among them; not a failure
	// Details spell out the warnings one line per item, e.g. every bound
	// added; printed on request (-v).
	Details []Diagnostic
	// Declaring counts the CRDs of the input that translation worked on
	// (Works); a run where none did declared nothing (NoDeclarations).
	Declaring int
	// Reformatted are warnings, one per document that could not be
	// edited line by line and whose re-encoded text differs outside the
	// edits (manifest.Document.Reformatted). They are apart from Warnings
	// because translate --check makes them errors: a check must not pass
	// on a file that -w would reformat.
	Reformatted []Diagnostic
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
	r.File, r.Diags = EachCRD(in, func(d *manifest.Document, crd InputCRD) error {
		res, err := tr(crd.Value)
		if err != nil {
			return err
		}
		// Lines of the input, before the edits.
		warnings, details := boundNotes(crd.At, d, res.Bounds)
		for _, w := range problemDiags(crd.At, d, res.Warnings) {
			w.Severity = diag.Warning
			warnings = append(warnings, w)
		}
		if err := d.Apply(res.Edits); err != nil {
			return err // placed by manifest
		}
		if d.Reformatted() {
			note := crd.At
			note.Severity, note.Detail = diag.Warning, reformatted
			r.Reformatted = append(r.Reformatted, note)
		}
		r.Warnings = append(r.Warnings, warnings...)
		r.Details = append(r.Details, details...)
		if Works(res) {
			r.Declaring++
		}
		return nil
	})
	return r
}

// reformatted says what Result.Reformatted reports, and what to do.
const reformatted = "the document cannot be edited line by line, so translate writes it anew, changing lines outside the edits too " +
	"(long lines joined, flow collections respaced, comments moved): keep YAML in block style, one key per line, without anchors, " +
	"and JSON indented by one unit throughout (docs/rewrite.md)"

// Works says whether a translation worked on its CRD: the CRD declares
// something, which its output keeps in the mut2cel.io/declarations
// annotation, or the translation changes it (the rules mut2cel owned go
// with the last declaration).
func Works(res *translate.Result) bool {
	return res.Changed() || res.Translated != nil && translate.Annotated(res.Translated)
}

// boundNotes report the bounds added: one line per version, saying how
// many of each keyword and their values, and a detail line per bound.
// Each bound narrows what the apiserver accepts, so none goes unreported.
func boundNotes(at Diagnostic, d *manifest.Document, bounds []translate.AddedBound) (summaries, details []Diagnostic) {
	var versions []string
	byVersion := map[string][]translate.AddedBound{}
	for _, b := range bounds {
		if byVersion[b.Version] == nil {
			versions = append(versions, b.Version)
		}
		byVersion[b.Version] = append(byVersion[b.Version], b)
		note := at
		note.Line, note.RenderedPath = d.Line(b.Path), "version "+b.Version+" "+b.Node
		note.Detail = fmt.Sprintf("added %s: %d", b.Keyword, b.Value)
		details = append(details, note)
	}
	for _, v := range versions {
		note := at
		note.Line = d.Line(byVersion[v][0].Path[:5])
		why := "so that the generated rules pass the CEL cost limits"
		for _, b := range byVersion[v] {
			if b.Indexed {
				why = "that the generated rules need (to compare lists index by index below Kubernetes 1.33, as given, or to pass the CEL cost limits)"
				break
			}
		}
		note.Detail = fmt.Sprintf("version %s: added %s %s; larger values are now rejected (-v lists them; docs/cost.md)", v, summarizeBounds(byVersion[v]), why)
		summaries = append(summaries, note)
	}
	return summaries, details
}

// summarizeBounds writes "12 bounds (maxLength 1000 on 5 strings, maxItems
// 64 to 500 on 7 lists)".
func summarizeBounds(bounds []translate.AddedBound) string {
	type group struct {
		n        int
		min, max int64
	}
	groups := map[string]*group{}
	for _, b := range bounds {
		g := groups[b.Keyword]
		if g == nil {
			g = &group{min: b.Value, max: b.Value}
			groups[b.Keyword] = g
		}
		g.n++
		g.min, g.max = min(g.min, b.Value), max(g.max, b.Value)
	}
	var parts []string
	for _, kw := range []struct{ keyword, what string }{{"maxLength", "string"}, {"maxItems", "list"}, {"maxProperties", "map"}} {
		g := groups[kw.keyword]
		if g == nil {
			continue
		}
		values := fmt.Sprint(g.min)
		if g.max != g.min {
			values = fmt.Sprintf("%d to %d", g.min, g.max)
		}
		parts = append(parts, fmt.Sprintf("%s %s on %d %s", kw.keyword, values, g.n, diag.Plural(g.n, kw.what)))
	}
	return fmt.Sprintf("%d %s (%s)", len(bounds), diag.Plural(len(bounds), "bound"), strings.Join(parts, ", "))
}

// problemDiags places each problem at its file and line: a declarations
// file's line, or the line of the CRD the problem's path leads to. They
// come out sorted by file and line, so that they read top to bottom.
func problemDiags(at Diagnostic, d *manifest.Document, problems []translate.Problem) []Diagnostic {
	var out []Diagnostic
	for _, p := range problems {
		if p.File == "" { // about the CRD, not a line of a declarations file
			p.File, p.Line, p.Doc, p.Object = at.File, d.Line(p.Path), at.Doc, at.Object
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}
