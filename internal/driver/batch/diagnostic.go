package batch

import (
	"fmt"
	"strings"
)

// Diagnostic is one reason a run fails, printed as
//
//	FILE:LINE: document N (Kind/name): FIELD: DETAIL
//
// leaving out the parts that are unknown.
type Diagnostic struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`     // 0 when unknown
	Doc    int    `json:"document,omitempty"` // document number from 1; 0 when not about one document
	Object string `json:"object,omitempty"`   // Kind/name of the document
	Field  string `json:"field,omitempty"`    // schema path, as the apiserver prints it
	// Type and Reason classify a translation problem: translate.Problem's
	// Type and Reason, empty for other diagnostics.
	Type   string `json:"type,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Warning marks something the user should know that does not fail
	// the run; it prints as "warning: " before Detail.
	Warning bool   `json:"warning,omitempty"`
	Detail  string `json:"detail"`
	// Reasons are the several reasons of one refusal, which Detail
	// introduces (translate.Problem.Reasons), printed one a line.
	Reasons []string `json:"reasons,omitempty"`
	// more counts the reasons FirstReasons left out, and hint says
	// where to find them.
	more int
	hint string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(d.File)
		if d.Line > 0 {
			fmt.Fprintf(&b, ":%d", d.Line)
		}
		b.WriteString(": ")
	}
	if d.Doc > 0 {
		fmt.Fprintf(&b, "document %d", d.Doc)
		if d.Object != "" {
			fmt.Fprintf(&b, " (%s)", d.Object)
		}
		b.WriteString(": ")
	}
	if d.Field != "" {
		b.WriteString(d.Field + ": ")
	}
	if d.Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Detail)
	for _, r := range d.Reasons {
		b.WriteString("\n  - " + r)
	}
	if d.more > 0 {
		fmt.Fprintf(&b, "\n  and %d more", d.more)
		if d.hint != "" {
			b.WriteString(" " + d.hint)
		}
	}
	return wrap(b.String())
}

// FirstReasons returns d with at most n of its Reasons, followed by a
// line that counts the others and ends with hint, which says how to see
// them all ("(-v lists them)"): the first few reasons tell what stands in
// the way, and a refusal of a large schema may have dozens.
func (d Diagnostic) FirstReasons(n int, hint string) Diagnostic {
	if len(d.Reasons) <= n {
		return d
	}
	d.more, d.hint = len(d.Reasons)-n, hint
	d.Reasons = d.Reasons[:n:n]
	return d
}

// MaxPerFile is the most diagnostics of one kind Capped keeps for a
// file, as the Go compiler stops at ten errors: the first few say what is
// wrong, and 100,000 lines of the same mistake bury them (and made 20 MB
// of standard error).
const MaxPerFile = 10

// Capped returns diags with at most MaxPerFile of each file, in their
// order, each file's last shown followed by a line that counts those left
// out. Diagnostics without a file are all kept.
func Capped(diags []Diagnostic) []Diagnostic {
	count := map[string]int{}
	for _, d := range diags {
		if d.File != "" {
			count[d.File]++
		}
	}
	var out []Diagnostic
	shown := map[string]int{}
	for _, d := range diags {
		if d.File == "" || count[d.File] <= MaxPerFile {
			out = append(out, d)
			continue
		}
		switch shown[d.File]++; {
		case shown[d.File] < MaxPerFile:
			out = append(out, d)
		case shown[d.File] == MaxPerFile:
			out = append(out, d, Diagnostic{File: d.File, Warning: d.Warning,
				Detail: fmt.Sprintf("too many problems: %d more in this file not shown", count[d.File]-MaxPerFile)})
		}
	}
	return out
}

// maxLine is the longest line a diagnostic prints: a terminal shows it in
// a few rows, and a reader takes it in at once.
const maxLine = 300

// wrap breaks lines longer than maxLine where breakAt says, continuing on
// lines indented by two spaces.
func wrap(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for _, line := range lines {
		for len(line) > maxLine {
			cut := breakAt(line[:maxLine])
			if cut <= 0 {
				break
			}
			out = append(out, strings.TrimRight(line[:cut], " "))
			line = "  " + strings.TrimLeft(line[cut:], " ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// breakAt is where to break a line whose first maxLine bytes are head:
// after the last separator of the strongest kind (";", ":", ",", space,
// and last, inside a schema path, "]") found in its second half, or 0
// when there is none.
func breakAt(head string) int {
	for _, sep := range []string{"; ", ": ", ", ", " ", "]"} {
		if i := strings.LastIndex(head, sep); i > maxLine/2 {
			return i + len(sep)
		}
	}
	return 0
}

// objectName returns "Kind/name" of a decoded manifest, or what it has of it.
func objectName(doc map[string]interface{}) string {
	kind, _ := doc["kind"].(string)
	meta, _ := doc["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	switch {
	case kind != "" && name != "":
		return kind + "/" + name
	case kind != "":
		return kind
	}
	return name
}
