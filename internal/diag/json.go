package diag

import "encoding/json"

// jsonDiagnostic is the JSON shape of a Diagnostic: the place, the
// classification, and the message (where, type and detail) as detail.
type jsonDiagnostic struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Doc     int    `json:"document,omitempty"`
	Object  string `json:"object,omitempty"`
	Field   string `json:"field,omitempty"`
	Type    string `json:"type,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Warning bool   `json:"warning,omitempty"`
	Detail  string `json:"detail"`
	// Reasons are all of them: JSON is read by programs, which need no
	// shortening.
	Reasons []string `json:"reasons,omitempty"`
}

// MarshalJSON writes d in its JSON shape, an output of the commands
// that nothing reads back.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	return json.Marshal(jsonDiagnostic{
		File: d.File, Line: d.Line, Column: d.Column, Doc: d.Doc, Object: d.Object,
		Field: d.Field(), Type: string(d.Type), Reason: d.Reason,
		Warning: d.IsWarning(), Detail: d.Message(), Reasons: d.allReasons(),
	})
}
