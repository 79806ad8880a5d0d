package batch

import (
	"fmt"
	"io"

	"github.com/mut2cel/mut2cel/manifest"
)

// Exit is how a run ended, one policy for every command, so that a CI
// job can tell a finding from a run that could not be done (as diff and
// cmp do); the command exits with it.
type Exit int

const (
	// ExitOK: nothing to report.
	ExitOK Exit = 0
	// ExitFinding: the check found something (a file translation would
	// change, a disagreement, a CRD over a static limit).
	ExitFinding Exit = 1
	// ExitError: the run could not be done.
	ExitError Exit = 2
)

// Reporter is where a run says what it has to say before it ends: the
// command prints it on standard error as the run goes.
type Reporter interface {
	// Progress says that done of total inputs are read.
	Progress(done, total int)
	// Say prints notes and warnings, at most MaxPerFile a file.
	Say(diags []Diagnostic)
	// SayAll prints diagnostics whole, as -v asks for details.
	SayAll(diags []Diagnostic)
}

// ProgressOnly is r saying nothing but progress: for a run whose report
// is one document on standard output, which holds the notes and
// warnings.
func ProgressOnly(r Reporter) Reporter { return progressOnly{r} }

type progressOnly struct{ r Reporter }

func (p progressOnly) Progress(done, total int) { p.r.Progress(done, total) }
func (progressOnly) Say([]Diagnostic)           {}
func (progressOnly) SayAll([]Diagnostic)        {}

// Silent is a Reporter that says nothing.
type Silent struct{}

func (Silent) Progress(done, total int) {}
func (Silent) Say([]Diagnostic)         {}
func (Silent) SayAll([]Diagnostic)      {}

// Outcome is what a run leaves for the command to print, once it is
// done, and how it ended.
type Outcome struct {
	Exit Exit
	// Problems are printed on standard error: the reasons the run failed,
	// each refusal with its first reasons (all of them with -v).
	Problems []Diagnostic
	// Stdout is the run's output.
	Stdout []byte
	// Summary is the run's last line on standard error, if any.
	Summary string
}

// Failed is the Outcome of a run that could not be done for problems.
func Failed(problems []Diagnostic) Outcome { return Outcome{Exit: ExitError, Problems: problems} }

// Loop is the part every command's run shares: the inputs read one by
// one, progress said, the documents that are not CRDs counted, and, at
// the end, an input that holds no CRD reported.
type Loop struct {
	Paths    []string
	Stdin    io.Reader
	Reporter Reporter
	// Problems gathers the problems of the whole run.
	Problems []Diagnostic
	census   Census
}

// Inputs collects the inputs the paths name (Collect).
func (l *Loop) Inputs() []Input {
	inputs, problems := Collect(l.Paths, l.Stdin)
	l.Problems = append(l.Problems, problems...)
	return inputs
}

// Done records that the i-th of total inputs, in, is done, parsed as f
// (nil when it does not parse): it says how far the run is, and the
// census of the input's documents that are not CRDs.
func (l *Loop) Done(i, total int, in Input, f *manifest.File) {
	l.Reporter.Progress(i+1, total)
	l.Reporter.Say(l.census.Add(in.Name, f))
}

// Census is the run's census of documents that are not CRDs.
func (l *Loop) Census() *Census { return &l.census }

// NoCRD adds, to a run without problems, the error of inputs that hold
// no CRD at all.
func (l *Loop) NoCRD() {
	if len(l.Problems) == 0 {
		l.Problems = l.census.NoCRD(l.Paths)
	}
}

// ShownReasons is how many reasons of one refusal a run prints without
// -v: enough to see what stands in the way, in a few lines.
const ShownReasons = 3

// FirstReasons keeps the first ShownReasons reasons of each refusal in
// diags, counting the others, unless verbose asks for every one.
func FirstReasons(diags []Diagnostic, verbose bool) []Diagnostic {
	if verbose {
		return diags
	}
	out := make([]Diagnostic, len(diags))
	for i, d := range diags {
		out[i] = d.FirstReasons(ShownReasons, "(-v lists them)")
	}
	return out
}

// Counted renders n nouns: "1 file", "2 files".
func Counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
