package verifyrun

import (
	"fmt"
	"io"

	"github.com/mut2cel/mut2cel/verify"
)

// WriteText writes the text report of one CRD: a line per version with
// its pairs and disagreements, a line per declaration no pair exercised,
// and the shrunk counterexample of each cause that has one, as a YAML
// document after a comment naming its cause. Write errors are not
// reported: the report goes to standard output.
func WriteText(w io.Writer, job Job, rep *verify.Report) {
	for _, v := range rep.Versions {
		d := job.Declared.At
		d.Doc, d.Object = 0, ""
		d.Detail = fmt.Sprintf("%s %s: %s", rep.CRD, v.Version, summary(v))
		fmt.Fprintln(w, d)
		for _, decl := range v.Unexercised() {
			d.Detail = fmt.Sprintf("%s %s: %s", rep.CRD, v.Version, unexercisedLine(decl, v.Pairs))
			fmt.Fprintln(w, d)
		}
		for _, c := range v.Causes {
			if c.Counterexample != nil {
				fmt.Fprintf(w, "---\n# %s\n%s", causeLine(c), c.Counterexample.YAML())
			}
		}
	}
}

// unexercisedLine names a declaration that no pair exercised and says
// why that fails the run.
func unexercisedLine(d verify.Declaration, pairs int) string {
	return fmt.Sprintf("%s: %s at %s was exercised by none of the %d pairs, so its rules went unchecked; "+
		"no valid update reaches it, or --pairs is too small for the generator to aim at every declaration",
		d.Extension, d.Value, d.Path, pairs)
}

// causeLine counts the disagreements of a cause and names it.
func causeLine(c *verify.CauseReport) string {
	n := "1 disagreement"
	if c.Disagreements > 1 {
		n = fmt.Sprintf("%d disagreements", c.Disagreements)
	}
	return fmt.Sprintf("%s of this cause: %s", n, c.Cause.Key())
}

func summary(v *verify.VersionReport) string {
	s := fmt.Sprintf("%d pairs, ", v.Pairs)
	if v.Disagreements == 0 {
		s += "no disagreement"
	} else {
		s += fmt.Sprintf("%d disagreements, the first at pair %d", v.Disagreements, v.First)
	}
	if shown := len(v.Counterexamples); len(v.Causes) > shown {
		s += fmt.Sprintf(", of %d causes, %d shown (--counterexamples)", len(v.Causes), shown)
	}
	if v.IntAsFloat > 0 {
		s += fmt.Sprintf("; %d judged otherwise because of an integer sent as a float", v.IntAsFloat)
	}
	if v.Invalid > 0 {
		s += fmt.Sprintf("; %d set aside: the apiserver refuses an object of the pair whatever the rules", v.Invalid)
	}
	return s
}

// Totals are the lines that end a run with something to report, each a
// reason it fails: the disagreements, and the declarations no pair
// exercised. None when the rules and the declarations agree.
func (d *Document) Totals() []string {
	var lines []string
	if d.Disagreements > 0 {
		lines = append(lines, fmt.Sprintf("%d disagreements in %d pairs", d.Disagreements, d.Pairs))
	}
	switch {
	case d.Unexercised == 1:
		lines = append(lines, "1 declaration was exercised by no pair, so its rules went unchecked")
	case d.Unexercised > 1:
		lines = append(lines, fmt.Sprintf("%d declarations were exercised by no pair, so their rules went unchecked", d.Unexercised))
	}
	return lines
}
