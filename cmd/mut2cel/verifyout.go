package main

import (
	"fmt"
	"time"

	"github.com/mut2cel/mut2cel/verify"
)

// progressInterval is the time between progress lines; tests set it to
// zero to print every report.
var progressInterval = time.Second

// progressPrinter reports at most once per progressInterval.
func progressPrinter(e *env, job verifyJob) func(verify.Progress) {
	start, last := time.Now(), time.Now()
	return func(p verify.Progress) {
		now := time.Now()
		if now.Sub(last) < progressInterval || p.Done == p.Total {
			return
		}
		last = now
		rate := float64(p.Done) / now.Sub(start).Seconds()
		fmt.Fprintf(e.stderr, "mut2cel verify: %s %s: %d/%d pairs, %.0f pairs/s, %d disagreements\n",
			job.declared.Name(), p.Version, p.Done, p.Total, rate, p.Disagreements)
	}
}

func printReport(e *env, job verifyJob, rep *verify.Report) {
	for _, v := range rep.Versions {
		d := job.declared.At
		d.Doc, d.Object = 0, ""
		d.Detail = fmt.Sprintf("%s %s: %s", rep.CRD, v.Version, summary(v))
		fmt.Fprintln(e.stdout, d)
		for _, decl := range v.Unexercised() {
			d.Detail = fmt.Sprintf("%s %s: %s", rep.CRD, v.Version, unexercisedLine(decl, v.Pairs))
			fmt.Fprintln(e.stdout, d)
		}
		for _, c := range v.Causes {
			if c.Counterexample != nil {
				fmt.Fprintf(e.stdout, "---\n# %s\n%s", causeLine(c), c.Counterexample.YAML())
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
