package auditrun

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/internal/diag"
)

// maxExample bounds a counterexample on its line of the text report; the
// JSON report has it whole.
const maxExample = 300

// maxRule bounds a rule in the text report.
const maxRule = 160

// WriteText writes the report for people: a summary, then each finding,
// most at risk first, then the bounds and notes. The text depends on the
// report only.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "mut2cel audit: %s\n", Summary(r))
	fmt.Fprintf(bw, "(%d updates per served version, seed %d)\n", r.Pairs, r.Seed)
	for _, f := range r.Findings {
		bw.WriteString("\n")
		writeFinding(bw, f)
	}
	if len(r.Bounds) > 0 {
		bw.WriteString("\nBounds mut2cel would add with those rules (they narrow what the apiserver accepts):\n")
		for _, b := range r.Bounds {
			fmt.Fprintf(bw, "  %s: %s\n", b.CRD, strings.Join(b.Bounds, "; "))
		}
	}
	if len(r.Notes) > 0 {
		bw.WriteString("\nNotes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "  %s (%s): %s\n", n.CRD, n.Origin, diag.Printable(n.Note))
		}
	}
	return bw.Flush()
}

// writeFinding writes one finding: a heading line, where the CRD was
// read, what it says, then what the verifier found per version and what
// mut2cel would add, versions with the same lines together.
func writeFinding(w *bufio.Writer, f Finding) {
	fmt.Fprintf(w, "%s %s %s: %s\n", strings.ToUpper(f.Status), f.CRD, f.Path, declarationText(f.Declaration))
	fmt.Fprintf(w, "  %s\n", f.Origin)
	for _, e := range f.Evidence {
		fmt.Fprintf(w, "  says: %s\n", e)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(w, "  note: %s\n", diag.Printable(n))
	}
	if f.Status == Unsure {
		fmt.Fprintf(w, "  not checked: %s\n", diag.Printable(f.Doubt))
		return
	}
	for _, g := range byLines(f.Versions, checkedLines) {
		writeGroup(w, g, "")
	}
	if f.Status == Enforced {
		return
	}
	for _, g := range byLines(f.Versions, addedLines) {
		writeGroup(w, g, "mut2cel would add, ")
	}
}

// declarationText writes a proposal as a declarations file does.
func declarationText(values map[string]string) string {
	var parts []string
	for _, ext := range decl.Extensions {
		if v, ok := values[ext]; ok {
			parts = append(parts, ext+": "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// group is the lines of versions that read alike.
type group struct {
	versions []string
	lines    []string
}

// byLines groups versions by the lines lines gives them, in order.
func byLines(vs []VersionFinding, lines func(VersionFinding) []string) []group {
	var out []group
	at := map[string]int{}
	for _, v := range vs {
		ls := lines(v)
		if len(ls) == 0 {
			continue
		}
		k := strings.Join(ls, "\n")
		if i, ok := at[k]; ok {
			out[i].versions = append(out[i].versions, v.Version)
			continue
		}
		at[k] = len(out)
		out = append(out, group{versions: []string{v.Version}, lines: ls})
	}
	return out
}

func writeGroup(w *bufio.Writer, g group, prefix string) {
	fmt.Fprintf(w, "  %s%s: %s\n", prefix, strings.Join(g.versions, ", "), g.lines[0])
	for _, l := range g.lines[1:] {
		fmt.Fprintf(w, "    %s\n", l)
	}
}

// checkedLines say what the verifier found in one version.
func checkedLines(v VersionFinding) []string {
	head := fmt.Sprintf("the published rules deny all %d judged updates that break it", v.Breaking)
	switch {
	case v.Status == NotEnforced:
		head = fmt.Sprintf("nothing the published rules do holds it: they allow %d judged updates that break it", v.Allowed)
	case v.Status == Holes && v.Breaking > 0:
		head = fmt.Sprintf("the published rules allow %d of %d judged updates that break it", v.Allowed, v.Breaking)
	case v.Status == Holes:
		head = fmt.Sprintf("the published rules allow %d judged updates that break it", v.Allowed)
	case v.Breaking == 0:
		head = fmt.Sprintf("the published rules let through no update that breaks it, of %d judged updates that reached it", v.Exercised)
	}
	lines := []string{head}
	for _, h := range v.Holes {
		lines = append(lines, holeLine(h))
		if ce := h.Counterexample; ce != nil {
			lines = append(lines, "  e.g. "+example(ce))
		}
	}
	if len(v.Untested) > 0 {
		lines = append(lines, "untested (no judged update broke it; more --pairs may): "+strings.Join(v.Untested, ", "))
	}
	return lines
}

func holeLine(h Hole) string {
	s := fmt.Sprintf("%s: %s let through %d times", h.Declaration, h.Kind, h.Allowed)
	if len(h.Constraints) > 0 {
		s += " (" + strings.Join(h.Constraints, ", ") + ")"
	}
	return s
}

// example writes a counterexample on one line: create old, update to new.
func example(ce *verifyrun.CounterexampleResult) string {
	return cut(diag.Printable(compact(ce.Old)+" -> "+compact(ce.New)), maxExample)
}

// compact is v as JSON on one line, rules' && and < as they are.
func compact(v interface{}) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(" + err.Error() + ")"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// addedLines are the rules mut2cel would add in one version.
func addedLines(v VersionFinding) []string {
	var lines []string
	for _, r := range v.Adds {
		lines = append(lines, fmt.Sprintf("at %s: %s (cost %d)", r.Host, cut(diag.Printable(r.Rule), maxRule), r.Cost))
	}
	if len(lines) == 0 && v.Status != Enforced {
		lines = append(lines, "no rule: the schema keeps what the rules do not (required properties), or translate could not check it (notes)")
	}
	return lines
}

// cut shortens s to at most n bytes, at a character, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n - 3
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "..."
}
