package verifyrun

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/internal/limits"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// DefaultPairs is the number of updates checked per CRD version when a
// run does not say.
const DefaultPairs = verify.DefaultPairs

// VerifyOptions are the options of one verify.Verify.
type VerifyOptions = verify.Options

// Progress is how far the judging of one CRD version is.
type Progress = verify.Progress

// Options are a run of verify: what it verifies, which Jobs reads, and
// how it judges and reports, which Run reads.
type Options struct {
	// Run is where the run starts: its inputs, and, when the command
	// loaded them (Inputs), the translate options, declaration sets and
	// --bound-floor paths of its flags, which then replace Translate and
	// Sets, and apply to Translator.
	inputs.Run
	// Translate are the options of the translations made here, to find
	// the declarations and to make the rules under test; its
	// Declarations are those of Sets.
	Translate translate.Options
	// Sets are the declarations of the run's files and markers
	// (--declarations, --markers), already read; Jobs records the CRDs
	// they are given for and reports the sets that name none. Nil: none.
	Sets *batch.DeclarationSets
	// Against is the manifest whose CRDs are under test (--against); empty,
	// the CRDs under test are the inputs' translations.
	Against string

	// Judged by the validating policies mut2cel policy writes (Policy),
	// by the hand-written ones of --against-policy (HandWritten), or,
	// with Normalize, the normalizing policies held to the reference;
	// else by the CRD rules, in process or, with Server, through the
	// apiserver of --server.
	Policy      bool
	HandWritten []*admissionregistrationv1.ValidatingAdmissionPolicy
	Normalize   bool
	Server      bool
	// StartServer starts the apiserver of Server and makes it the judge
	// of opts; it returns what stops it, or false when it cannot start,
	// which it reports. Only a binary built with the server tag has one
	// (driver/apiserver.StartForVerify).
	StartServer func(stderr io.Writer, opts *verify.Options, quiet bool) (stop func(), ok bool)

	// Verify are the options of each verify.Verify; its Progress is
	// ProgressOf's.
	Verify verify.Options
	// Quiet says nothing of how the run goes; ProgressOf, when set,
	// returns what is told the progress of a job.
	Quiet      bool
	ProgressOf func(Job) func(Progress)
	// Format is text, json or yaml. Text reports are written to Stdout as
	// each CRD is done, through Text, which makes a writer fit for a
	// terminal; json and yaml as one document at the end. Stderr has the
	// run's last lines; Run's Reporter says the warnings of reading the
	// inputs.
	Format string
	Stdout io.Writer
	Stderr io.Writer
	Text   func(io.Writer) io.Writer
}

// Run reads the inputs, verifies every job as r says and reports:
// ExitFinding for a disagreement or anything left unchecked, ExitError
// for a run that could not be done.
func Run(r Options) batch.Exit {
	if r.Translator == nil {
		r.Translator = inputs.DefaultTranslator
	}
	if r.Inputs != nil {
		r.Translate, r.Sets, r.Translator = r.Inputs.Options, r.Inputs.Sets, r.Inputs.Translator(r.Translator)
	}
	jobs, warnings, diags := Jobs(r.Paths, r)
	// Jobs reports the unused declaration sets; the floors are looked up
	// on every CRD it found declarations in, translated here or not.
	if r.Inputs != nil {
		diags = append(diags, r.Inputs.UnknownFloors(jobDocuments(jobs))...)
	}
	r.Reporter.Say(warnings)
	if len(diags) > 0 {
		r.Reporter.Say(diags)
		return batch.ExitError
	}
	defer BoundHeap()()
	if r.Server {
		stop, ok := r.StartServer(r.Stderr, &r.Verify, r.Quiet)
		if !ok {
			return batch.ExitError
		}
		defer stop()
	}
	if r.Normalize {
		return r.normalizeAll(jobs)
	}
	return r.judgeAll(jobs)
}

// BoundHeap sets the garbage collector as a verifying run needs it and
// returns what restores it; audit's run verifies too. Garbage is collected as verify.GCPercent says; past
// limits.VerifyHeap as often as it takes to stay under it: the garbage of
// the apiserver's CEL evaluation grows with the declarations of a node,
// and at GCPercent the heap grew with it (4 GB for 1,000 declared
// fields). A GOGC or GOMEMLIMIT set by the user wins.
func BoundHeap() (restore func()) {
	setGC, setMemory := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	var gc int
	var memory int64
	if setGC {
		gc = debug.SetGCPercent(verify.GCPercent)
	}
	if setMemory {
		memory = debug.SetMemoryLimit(limits.VerifyHeap)
	}
	return func() {
		if setMemory {
			debug.SetMemoryLimit(memory)
		}
		if setGC {
			debug.SetGCPercent(gc)
		}
	}
}

// judge verifies one job as the run says.
func (r *Options) judge(job Job, opts verify.Options) (*verify.Report, error) {
	var pj PolicyJob
	var err error
	switch {
	case r.Policy:
		pj, err = OwnPolicies(job, r.Translate)
	case r.HandWritten != nil:
		pj, err = AgainstPolicies(job, r.HandWritten)
	default:
		return verify.Verify(job.Declared.Value, job.Tested, opts)
	}
	if err != nil {
		return nil, err
	}
	return pj.Verify(opts)
}

// judgeAll verifies the jobs and prints their reports in r.Format.
func (r *Options) judgeAll(jobs []Job) batch.Exit {
	doc := NewDocument()
	for _, job := range jobs {
		o := r.Verify
		if r.ProgressOf != nil {
			o.Progress = r.ProgressOf(job)
		}
		rep, err := r.judge(job, o)
		if err != nil {
			return r.failed(job, err)
		}
		if r.Format == "text" {
			WriteText(r.Text(r.Stdout), job, rep)
		}
		doc.Add(job, rep)
	}
	if r.Format != "text" {
		if err := doc.Write(r.Stdout, r.Format); err != nil {
			fmt.Fprintf(r.Stderr, "mut2cel verify: writing the report: %v\n", err)
			return batch.ExitError
		}
	}
	totals := doc.Totals()
	for _, line := range totals {
		fmt.Fprintf(r.Stderr, "mut2cel verify: %s\n", line)
	}
	if len(totals) > 0 {
		return batch.ExitFinding
	}
	return batch.ExitOK
}

// failed prints why a CRD could not be verified: the input's fault, or
// the judge's, which only --server's apiserver can be. Either way the run
// could not be done.
func (r *Options) failed(job Job, err error) batch.Exit {
	d := job.Declared.At
	d.Detail = err.Error()
	var jerr *verify.JudgeError
	if errors.As(err, &jerr) {
		d.Detail = "internal error of the apiextensions-apiserver of --server, not a problem of the input: " + err.Error() +
			"; verify without --server checks the same rules with the apiserver's validator in process"
	}
	fmt.Fprintln(r.Stderr, d.Wrapped())
	return batch.ExitError
}

// normalizeAll checks the normalizing policies of the jobs: nothing to
// normalize is an error, a disagreement a finding.
func (r *Options) normalizeAll(jobs []Job) batch.Exit {
	found, disagreements := false, 0
	for _, job := range jobs {
		nj, err := Normalizers(job, r.Translate)
		if err != nil {
			return r.failed(job, err)
		}
		if len(nj.Normalizers) == 0 {
			continue
		}
		found = true
		reps, err := nj.Verify(r.Verify.Pairs, r.Verify.Seed)
		if err != nil {
			return r.failed(job, err)
		}
		WriteNormalizationText(r.Text(r.Stdout), job, reps)
		for _, rep := range reps {
			disagreements += rep.Disagreements
		}
	}
	if !found {
		fmt.Fprintln(r.Stderr, "mut2cel verify: no CRD of the inputs declares a union: nothing to normalize")
		return batch.ExitError
	}
	if disagreements > 0 {
		fmt.Fprintf(r.Stderr, "mut2cel verify: %d normalizations disagree with the reference\n", disagreements)
		return batch.ExitFinding
	}
	return batch.ExitOK
}

// jobDocuments are the declared CRDs of jobs.
func jobDocuments(jobs []Job) []map[string]interface{} {
	docs := make([]map[string]interface{}, len(jobs))
	for i, job := range jobs {
		docs[i] = job.Declared.Value
	}
	return docs
}
