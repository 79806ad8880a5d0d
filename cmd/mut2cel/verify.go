package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/internal/batch"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

var verifyCommand = &command{
	name: "verify", args: "[flags] [PATH...]",
	summary: "check rules against the declarations on generated updates",
	help: `Checks that the x-kubernetes-validations rules of CRDs enforce their
mutability declarations exactly as docs/semantics.md says. For every CRD in
PATH that has declarations, and every version it serves, verify generates
updates of custom resources, runs both objects through the apiserver's
storage pipeline (pruning, null dropping, defaulting, the JSON round trip of
the old object), and compares the verdict of the rules, run by the
apiserver's CEL validator, with the verdict of the reference checker.

Rules of PATH's own (those translate did not generate) deny on both sides:
the reference verdict is that the checker and those rules allow the
update, as the apiserver composes rules (docs/verify.md).

Without --against, the rules checked are mut2cel's translation of PATH.
With --against, they are those of the CRD with the same metadata.name in
TRANSLATED: a hand-edited translation, or one made by another tool.
With --all-versions, the declarations of each served version are first
applied to every other served version where the path exists, as translate
--all-versions does, and every version is held to them.

PATH is a file, or a directory searched recursively for *.yaml, *.yml and
*.json files. "-" or no PATH reads standard input. A PATH that holds no
manifest is an error.

With --server, the verdict of the rules is that of a real
apiextensions-apiserver (Kubernetes 1.37) with an embedded etcd, started in
this process and stopped at the end: each update is a create of the old
object and an update to the new one, through the server's whole request
path. Pairs the server refuses whatever the rules say (objects that fail
the schema) are not counted as denials. Nothing is downloaded. It judges at
most a few hundred pairs per second, against thousands in process: use a
smaller --pairs. The apiserver and etcd double the size of the binary, so
only a mut2cel built with the server tag has them:
go install -tags server github.com/mut2cel/mut2cel/cmd/mut2cel@latest

For each version a line reports the pairs checked and the disagreements.
Disagreements are grouped by cause: the rules that deny the update, or the
declarations and kinds of violation (value, presence, keys) the reference
checker reports. The first pair of each of the first --counterexamples
causes is shrunk and printed as a YAML document with both verdicts, the
rules involved and the old and new objects, after a comment naming its
cause and counting its disagreements. With -o json or -o yaml, one
document holds every CRD, version, cause, counterexample and, per
declaration, the pairs that exercised it (docs/verify.md). Progress goes
to standard error about once a second.

When the apiserver of --server fails (it does not start, refuses a CRD
that its validation in process accepts, or stops answering), the run
could not be done: the exit status is 2, as for an input that cannot be
read, translated or matched, or for --server given to a binary built
without it; 1 always means a disagreement or a declaration that no pair
exercised, which is named.
`,
	finding: "the rules and the declarations disagree on some update, or no update exercised a declaration",
}

// verifyOptions are the flags of verify.
type verifyOptions struct {
	pairs        int
	seed         int64
	against      string
	kube         kubeVersionFlag
	quiet        bool
	jobs         int
	server       bool
	allVersions  bool
	examples     int
	output       string
	declarations []string
	sets         *batch.DeclarationSets
}

func init() {
	verifyCommand.flags = func() *pflag.FlagSet { return verifyFlags(&verifyOptions{}) }
	verifyCommand.run = runVerify
}

func verifyFlags(o *verifyOptions) *pflag.FlagSet {
	o.kube = kubeVersionFlag(translate.DefaultKubeVersion)
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	fs.IntVar(&o.pairs, "pairs", verify.DefaultPairs, "updates checked per CRD version")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the generated updates; the same seed checks the same updates")
	fs.StringVar(&o.against, "against", "", "verify the CRDs in this manifest instead of the translation of PATH")
	kubeVersionVar(fs, &o.kube)
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print no progress")
	fs.IntVar(&o.jobs, "jobs", runtime.GOMAXPROCS(0), "updates judged at once; the output does not depend on it")
	fs.BoolVar(&o.server, "server", false, "judge each update with a real apiextensions-apiserver started in this process (slower; needs a build with -tags server)")
	allVersionsFlag(fs, &o.allVersions)
	fs.IntVar(&o.examples, "counterexamples", 3, "causes of disagreement per version shown by a shrunk counterexample")
	fs.StringVarP(&o.output, "output", "o", "text", "output format: text, json or yaml")
	declarationsFlag(fs, &o.declarations)
	return fs
}

// serverJudge starts the apiserver of --server and makes it the judge of
// opts. It returns the function that stops the server, or false when it
// cannot start, which it reports. It is nil unless the binary is built
// with the server tag (verifyserver.go).
var serverJudge func(e *env, opts *verify.Options, quiet bool) (stop func(), ok bool)

// installServer installs the mut2cel whose verify has --server.
const installServer = "go install -tags server github.com/mut2cel/mut2cel/cmd/mut2cel@latest"

// gcPercent is the garbage collector's target during a run (GOGC).
const gcPercent = 400

// verifyJob is one CRD to verify: its declarations and the CRD under test.
type verifyJob struct {
	declared batch.CRD
	tested   map[string]interface{}
}

func runVerify(c *command, e *env, args []string) int {
	var o verifyOptions
	fs := verifyFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if o.pairs <= 0 || o.jobs <= 0 || o.examples <= 0 {
		e.usageError(c, "--pairs, --jobs and --counterexamples must be positive, got %d, %d and %d", o.pairs, o.jobs, o.examples)
		return exitUsage
	}
	if o.output != "text" && o.output != "json" && o.output != "yaml" {
		e.usageError(c, "-o must be text, json or yaml, not %q", o.output)
		return exitUsage
	}
	if o.server && serverJudge == nil {
		e.usageError(c, "--server needs the apiserver, which this binary is built without; install the mut2cel that has it with\n  %s", installServer)
		return exitUsage
	}
	jobs, diags := verifyJobs(e, fs.Args(), o)
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(e.stderr, d)
		}
		return exitError
	}
	// The apiserver's CEL evaluation allocates a little garbage on every
	// field access, while the live heap stays small: collecting less often
	// about halves the time per pair for a few tens of MB.
	// A GOGC set by the user wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	}
	opts := verify.Options{Pairs: o.pairs, Seed: o.seed, Workers: o.jobs, Counterexamples: o.examples}
	if o.against != "" && fs.Changed("kube-version") {
		opts.KubeMinor = o.kube.Minor
	}
	if o.server {
		stop, ok := serverJudge(e, &opts, o.quiet)
		if !ok {
			return exitError
		}
		defer stop()
	}
	return verifyAll(e, jobs, opts, o.quiet, o.output)
}

// verifyJobs reads the inputs and pairs every CRD with declarations with
// the CRD under test: its translation, or its namesake in --against.
func verifyJobs(e *env, paths []string, o verifyOptions) ([]verifyJob, []batch.Diagnostic) {
	sets, diags := batch.ReadDeclarations(o.declarations)
	o.sets = sets
	inputs, more := batch.Collect(paths, e.stdin)
	diags = append(diags, more...)
	crds, more := batch.CRDs(inputs)
	diags = append(diags, more...)
	against, more := againstCRDs(o.against, e.stdin)
	diags = append(diags, more...)
	var jobs []verifyJob
	for _, crd := range crds {
		sets.See(crd.Value)
		var rewritten map[string]interface{}
		if translate.Annotated(crd.Value) {
			// Declarations kept in the annotation. A file translate -w
			// wrote is checked as it is against them; one never
			// translated, through its translation.
			declared, err := translate.Declared(crd.Value)
			if err != nil {
				d := crd.At
				d.Detail = err.Error()
				diags = append(diags, d)
				continue
			}
			if translate.Rewritten(crd.Value) {
				rewritten = crd.Value
			}
			crd.Value = declared
		}
		var translated map[string]interface{} // the translation, when made here
		switch {
		case (o.allVersions || len(sets.Sets) > 0) && against != nil:
			// The published rules are checked, not a translation: a
			// declaration no rule can express is still a declaration.
			declared, err := translate.DeclaredWith(crd.Value, o.translateOptions())
			if err != nil {
				d := crd.At
				d.Detail = err.Error()
				diags = append(diags, d)
				continue
			}
			crd.Value = declared
		case o.allVersions || len(sets.Sets) > 0:
			var d *batch.Diagnostic
			if crd.Value, translated, d = declaredByTranslation(crd, o); d != nil {
				diags = append(diags, *d)
				continue
			}
		}
		if !verify.HasDeclarations(crd.Value) {
			continue
		}
		if rewritten != nil && against == nil {
			jobs = append(jobs, verifyJob{declared: crd, tested: rewritten})
			continue
		}
		if translated != nil && against == nil {
			jobs = append(jobs, verifyJob{declared: crd, tested: translated})
			continue
		}
		tested, d := testedCRD(crd, against, o)
		if d != nil {
			diags = append(diags, *d)
			continue
		}
		jobs = append(jobs, verifyJob{declared: crd, tested: tested})
	}
	unusedWarnings, unusedErrs := sets.Unused()
	printDiags(e, unusedWarnings)
	diags = append(diags, unusedErrs...)
	return jobs, diags
}

// againstCRDs reads --against and indexes its CRDs by name; nil without it.
func againstCRDs(path string, stdin io.Reader) (map[string]map[string]interface{}, []batch.Diagnostic) {
	if path == "" {
		return nil, nil
	}
	inputs, diags := batch.Collect([]string{path}, stdin)
	crds, more := batch.CRDs(inputs)
	diags = append(diags, more...)
	byName := map[string]map[string]interface{}{}
	for _, crd := range crds {
		if _, dup := byName[crd.Name()]; dup {
			d := crd.At
			d.Detail = fmt.Sprintf("a second CRD named %q: --against must hold one CRD per name", crd.Name())
			diags = append(diags, d)
		}
		byName[crd.Name()] = crd.Value
	}
	return byName, diags
}

func testedCRD(crd batch.CRD, against map[string]map[string]interface{}, o verifyOptions) (map[string]interface{}, *batch.Diagnostic) {
	d := crd.At
	if against != nil {
		if tested, ok := against[crd.Name()]; ok {
			return tested, nil
		}
		d.Detail = fmt.Sprintf("no CRD named %q in %s", crd.Name(), o.against)
		return nil, &d
	}
	res, err := translate.Translate(crd.Value, o.translateOptions())
	var terr *translate.Error
	switch {
	case errors.As(err, &terr):
		d.Detail = "cannot be translated, so there is nothing to verify: " + terr.Error()
		return nil, &d
	case err != nil:
		d.Detail = err.Error()
		return nil, &d
	}
	return res.Translated, nil
}

// declaredByTranslation returns the CRD with the declarations that
// --all-versions copies, and those of --declarations files, written into
// the versions they apply to, so that the reference checker holds every
// version to them. The translation made on the way is returned as well,
// so that it is not made again to be tested.
func declaredByTranslation(crd batch.CRD, o verifyOptions) (declared, translated map[string]interface{}, _ *batch.Diagnostic) {
	res, err := translate.Translate(crd.Value, o.translateOptions())
	if err == nil {
		if declared, err = translate.Declared(res.Translated); err == nil {
			return declared, res.Translated, nil
		}
	}
	d := crd.At
	d.Detail = "cannot be translated, so there is nothing to verify: " + err.Error()
	return nil, nil, &d
}

func (o verifyOptions) translateOptions() translate.Options {
	opts := translate.Options{KubeVersion: translate.KubeVersion(o.kube), AllServedVersions: o.allVersions}
	if o.sets != nil {
		opts.Declarations = o.sets.Sets
	}
	return opts
}

// verifyAll verifies the jobs and prints their reports in format: text
// as each CRD is done, json or yaml as one document at the end.
func verifyAll(e *env, jobs []verifyJob, opts verify.Options, quiet bool, format string) int {
	disagreements, pairs, unexercised := 0, 0, 0
	doc := &verifyDocument{CRDs: []crdResult{}}
	for _, job := range jobs {
		o := opts
		if !quiet {
			o.Progress = progressPrinter(e, job)
		}
		rep, err := verify.Verify(job.declared.Value, job.tested, o)
		if err != nil {
			return reportVerifyError(e, job, err)
		}
		if format == "text" {
			printReport(e, job, rep)
		}
		doc.add(job, rep)
		for _, v := range rep.Versions {
			disagreements += v.Disagreements
			pairs += v.Pairs
			unexercised += len(v.Unexercised())
		}
	}
	if format != "text" {
		if err := writeDocument(e.stdout, doc, format); err != nil {
			fmt.Fprintf(e.stderr, "mut2cel verify: writing the report: %v\n", err)
			return exitError
		}
	}
	if disagreements > 0 {
		fmt.Fprintf(e.stderr, "mut2cel verify: %d disagreements in %d pairs\n", disagreements, pairs)
	}
	if unexercised > 0 {
		what := "1 declaration was exercised by no pair, so its rules went unchecked"
		if unexercised > 1 {
			what = fmt.Sprintf("%d declarations were exercised by no pair, so their rules went unchecked", unexercised)
		}
		fmt.Fprintf(e.stderr, "mut2cel verify: %s\n", what)
	}
	if disagreements > 0 || unexercised > 0 {
		return exitFinding
	}
	return exitOK
}

// reportVerifyError prints why a CRD could not be verified: the input's
// fault, or the judge's, which only --server's apiserver can be. Either
// way the run could not be done (exitError).
func reportVerifyError(e *env, job verifyJob, err error) int {
	d := job.declared.At
	d.Detail = err.Error()
	var jerr *verify.JudgeError
	if errors.As(err, &jerr) {
		d.Detail = "internal error of the apiextensions-apiserver of --server, not a problem of the input: " + err.Error() +
			"; verify without --server checks the same rules with the apiserver's validator in process"
	}
	fmt.Fprintln(e.stderr, d)
	return exitError
}
