package verifyrun

import (
	"fmt"
	"io"

	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// WriteText writes the text report of one CRD. For each version: a line
// with its pairs, how many were judged and the disagreements; a table of
// the declarations (judged pairs that exercised each, judged pairs that
// broke it, disagreements); a line for each declaration no pair exercised
// and each constraint no judged pair broke; a line for each group of
// disagreements (a constraint the rules let through, or a rule at fault);
// a line for each reason pairs were set aside, and for integers sent as
// floats. Then the shrunk counterexample of each group that has one, and
// the first pair of each of the first set-aside reasons, each a YAML
// document after a comment naming it. Write errors are not reported
// here: the caller checks its writer.
func WriteText(w io.Writer, job Job, rep *verify.Report) {
	d := job.Declared.At
	d.Doc, d.Object = 0, ""
	for _, v := range rep.Versions {
		line := func(format string, args ...interface{}) {
			d.Detail = fmt.Sprintf("%s %s: ", rep.CRD, v.Version) + fmt.Sprintf(format, args...)
			fmt.Fprintln(w, d)
		}
		line("%s", summary(v))
		writeTable(w, v)
		writeFindings(v, line)
		writeExamples(w, v)
	}
}

// writeFindings says, a line each, what a version left unchecked and
// where it disagrees.
func writeFindings(v *verify.VersionReport, line func(format string, args ...interface{})) {
	unexercised := map[reference.Declaration]bool{}
	var lines []string
	for _, decl := range v.Unexercised() {
		unexercised[decl] = true
		lines = append(lines, unexercisedLine(decl, v.Pairs))
	}
	for _, c := range v.Untested() {
		if !unexercised[c.Declaration] { // named above
			lines = append(lines, untestedLine(c))
		}
	}
	for i, l := range lines {
		if i == maxUncheckedLines {
			line("and %d more declarations or constraints left unchecked, as above; -o json lists every one", len(lines)-i)
			break
		}
		line("%s", l)
	}
	for _, c := range v.Unreachable() {
		line("out of reach: %s: the apiserver refused all %d pairs that broke it, so it refuses such updates itself (docs/verify.md, \"Pairs set aside\")",
			c.Constraint, c.Refused)
	}
	for _, g := range v.Groups {
		line("%s", groupLine(g))
	}
	for _, sa := range v.SetAside {
		line("%s", setAsideLine(sa))
	}
	if v.TooManySetAside() {
		line("%d of %d pairs set aside, more than the %.0f%% verify allows: the run checked too little (docs/verify.md, \"Pairs set aside\")",
			v.Invalid, v.Pairs, 100*verify.MaxSetAside)
	}
	if v.IntAsFloat > 0 {
		line("%d pairs judged otherwise only because an integer was sent as a float, such as pair %d (not failures; docs/verify.md, \"Integers sent as floats\")",
			v.IntAsFloat, v.IntAsFloatExample.Pair)
	}
}

// writeExamples writes a version's counterexamples, pairs set aside and
// integer-as-float example as YAML documents.
func writeExamples(w io.Writer, v *verify.VersionReport) {
	for _, g := range v.Groups {
		if g.Counterexample != nil {
			fmt.Fprintf(w, "---\n# %s\n%s", groupComment(g), g.Counterexample.YAML())
		}
	}
	for i, sa := range v.SetAside {
		if i == maxSetAsideExamples {
			break
		}
		fmt.Fprintf(w, "---\n# set aside, %s: %s\n%s", diag.Count(sa.Pairs, "pair"), sa.Message, verify.PairYAML(sa.Example))
	}
	if e := v.IntAsFloatExample; e != nil {
		fmt.Fprintf(w, "---\n# judged otherwise only because an integer was sent as a float, %s\n%s", diag.Count(v.IntAsFloat, "pair"), verify.PairYAML(*e))
	}
}

// maxSetAsideExamples is how many reasons for setting pairs aside get
// their first pair printed.
const maxSetAsideExamples = 3

// writeTable writes the declarations of a version, one a line, below its
// summary line.
func writeTable(w io.Writer, v *verify.VersionReport) {
	if len(v.Declarations) == 0 {
		return
	}
	fmt.Fprintf(w, "  %8s %9s %13s  %s\n", "judged", "violating", "disagreements", "declaration")
	for _, d := range v.Declarations {
		fmt.Fprintf(w, "  %8d %9d %13d  %s: %s at %s\n", d.Pairs, d.Violating, d.Disagreements, d.Extension, d.Value, d.Path)
	}
}

// maxUncheckedLines is how many declarations and constraints left
// unchecked the text report names one a line; a count says how many more
// there are. A CRD with a thousand declared fields checked on too few
// pairs would otherwise print thousands of lines, which say no more than
// the count and the summary's figures; -o json keeps them all.
const maxUncheckedLines = 20

// unexercisedLine names a declaration that no pair exercised and says
// why that fails the run.
func unexercisedLine(d reference.Declaration, pairs int) string {
	return fmt.Sprintf("%s: %s at %s was exercised by none of the %d pairs, so its rules went unchecked; "+
		"no valid update reaches it, or --pairs is too small for the generator to aim at every declaration",
		d.Extension, d.Value, d.Path, pairs)
}

// untestedLine names a constraint that no judged pair broke.
func untestedLine(c reference.Constraint) string {
	return fmt.Sprintf("untested: %s: no judged pair breaks it, so the rules that enforce it went unchecked; "+
		"more --pairs, another --seed, or fewer pairs set aside test it", c)
}

// groupLine counts the disagreements of a group and names it.
func groupLine(g *verify.GroupReport) string {
	return fmt.Sprintf("%s: %s, the first at pair %d", diag.Count(g.Disagreements, "disagreement"), g.Key(), g.First)
}

func groupComment(g *verify.GroupReport) string {
	return fmt.Sprintf("%s of this group: %s", diag.Count(g.Disagreements, "disagreement"), g.Key())
}

// setAsideLine counts the pairs set aside for one reason, with the
// apiserver's message for the first.
func setAsideLine(sa *verify.SetAsideReport) string {
	return fmt.Sprintf("set aside: %s, such as pair %d, because the apiserver refuses the %s: %s (docs/verify.md, \"Pairs set aside\")",
		diag.Count(sa.Pairs, "pair"), sa.Example.Pair, objectWord(sa.Object), sa.Message)
}

func objectWord(object string) string {
	switch object {
	case "old":
		return "old object on create"
	case "new":
		return "new object"
	}
	return "pair"
}

func summary(v *verify.VersionReport) string {
	s := fmt.Sprintf("%d pairs, %d judged", v.Pairs, v.Judged())
	if v.Invalid > 0 {
		s += fmt.Sprintf(" (%d set aside, %.1f%%)", v.Invalid, 100*float64(v.Invalid)/float64(v.Pairs))
	}
	if v.Disagreements == 0 {
		s += ", no disagreement"
	} else {
		s += fmt.Sprintf(", %d disagreements, the first at pair %d", v.Disagreements, v.First)
	}
	if v.IntAsFloat > 0 {
		s += fmt.Sprintf(", %d judged otherwise because of an integer sent as a float", v.IntAsFloat)
	}
	if len(v.Groups) > 0 {
		shown := 0
		for _, g := range v.Groups {
			if g.Counterexample != nil {
				shown++
			}
		}
		s += fmt.Sprintf(", in %s", diag.Count(len(v.Groups), "group"))
		if shown < len(v.Groups) {
			s += fmt.Sprintf(" (%d with a counterexample; --counterexamples)", shown)
		}
	}
	u, o := len(v.Untested()), len(v.Unreachable())
	switch {
	case u > 0:
		s += fmt.Sprintf("; %d of %d constraints untested", u, len(v.Constraints))
	case o > 0:
		s += fmt.Sprintf("; %d of %d constraints tested, %d out of reach", len(v.Constraints)-o, len(v.Constraints), o)
	case len(v.Constraints) > 0:
		s += fmt.Sprintf("; %s, all tested", diag.Count(len(v.Constraints), "constraint"))
	}
	return s
}

// Totals are the lines that end a run with something to report, each a
// reason it fails: the disagreements, the declarations no pair exercised,
// the constraints no judged pair broke, and the versions with too many
// pairs set aside. None when the run checked everything and the rules
// and the declarations agree.
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
	switch {
	case d.Untested == 1:
		lines = append(lines, "1 constraint was broken by no judged pair, so the rules that enforce it went unchecked")
	case d.Untested > 1:
		lines = append(lines, fmt.Sprintf("%d constraints were broken by no judged pair, so the rules that enforce them went unchecked", d.Untested))
	}
	switch {
	case d.TooManySetAside == 1:
		lines = append(lines, fmt.Sprintf("1 version set aside more than %.0f%% of its pairs (%d of %d in the run), so the run checked too little",
			100*verify.MaxSetAside, d.SetAside, d.Pairs))
	case d.TooManySetAside > 1:
		lines = append(lines, fmt.Sprintf("%d versions set aside more than %.0f%% of their pairs (%d of %d in the run), so the run checked too little",
			d.TooManySetAside, 100*verify.MaxSetAside, d.SetAside, d.Pairs))
	}
	return lines
}
