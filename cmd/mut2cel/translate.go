package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/internal/diff"
)

var translateCommand = &command{
	name: "translate", args: "[flags] [PATH...]",
	summary: "rewrite CRD manifests with the generated rules",
	help: `Translates every CustomResourceDefinition in the input: each mutability
declaration is removed and the x-kubernetes-validations rules that enforce
it are added. The declarations are kept in the mut2cel.io/declarations
annotation and the generated rules are recorded in mut2cel.io/generated, so
that a translated file can be edited and translated again
(docs/rewrite.md). Lines the translation does not concern are kept byte for
byte; a document that must be written anew whole, changing other lines
too (flow style, anchors), gets a warning, and is an error for --check.
A file without declarations does not change. Inputs that declare
nothing at all, in their schemas, their annotations, --declarations or
--markers, are an error: the run would change nothing, and --check would
pass on CRDs whose declarations were lost.

Served versions of a CRD without a conversion webhook store the same
objects, so a path declared in one of them must be declared alike in every
other served version that has it; --all-versions copies the declarations
there and keeps the copies in the annotation (docs/translation.md).

Declarations over strings of format date-time, duration or byte, which the
apiserver's CEL reads as instants, durations and bytes, are refused unless
x-mut2cel-formats: CompareAsValues stands beside them, or the run takes
--compare-formats-as-values: then respellings of one value (1h and 60m)
are no change (docs/semantics.md section 8).

With --markers, the mutability markers of Go API packages (+immutable,
+immutable-keys, +k8s:immutable, +k8s:update, +k8s:eachVal, and
+mut2cel:formats beside them) are added to
the CRDs controller-gen generated from them, and controller-gen's own rules
for +k8s:immutable are replaced: run it after controller-gen, as in
"mut2cel translate -w --markers ./api/... config/crd/bases"
(docs/markers.md). A bad marker is reported at its Go file and line.

PATH is a regular file, or a directory searched recursively for *.yaml,
*.yml and *.json files in lexical order. "-" or no PATH reads standard
input, the only way to read a pipe or a device: a PATH that is one is an
error, as is a PATH, or standard input, that holds no manifest. Documents
that are not CRDs pass through, and are counted on standard error, one
line an input; inputs that hold no CRD at all are an error.

Without flags, all documents, translated or not, are written to standard
output in input order. With -w the files are rewritten in place, keeping
their owner and mode; as with gofmt -w, a file you may not write is an
error, and so is one that changed since it was read or that another run
is rewriting (it holds a lock on the file): no change is lost; -w ends
with one line on standard error that says how many files it rewrote.
With --check and --diff nothing is written, and the exit status is 1 when
some file would change, as for diff and kubectl diff. With -w or --check,
-o json prints one JSON document instead: every file, the errors, the
warnings, the bounds added and the notes on documents that are not CRDs
(docs/rewrite.md).

If any input cannot be read or translated, every problem is reported on
standard error, nothing is written, and the exit status is 2. A
declaration refused for several reasons lists the first three and counts
the others; -v lists them all. When
standard error is a terminal, a run longer than a second reports there,
once a second, how many inputs are done.
`,
	finding: "with --check or --diff, some file would change",
}

// translateOptions are the flags of translate.
type translateOptions struct {
	inputs                      translateInputFlags
	write, check, diff, verbose bool
	output                      string
}

func init() {
	translateCommand.flags = func() *pflag.FlagSet { return translateFlags(&translateOptions{}) }
	translateCommand.run = runTranslate
}

func translateFlags(o *translateOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("translate", pflag.ContinueOnError)
	o.inputs.register(fs, "translate", nil)
	fs.BoolVarP(&o.write, "write", "w", false, "rewrite the files in place (atomically; nothing is written if any input fails)")
	fs.BoolVar(&o.check, "check", false, "list the files that translation would change and exit 1 if there are any (2 if an input cannot be translated); write nothing")
	fs.BoolVarP(&o.diff, "diff", "d", false, "print a unified diff of what translation would change and exit 1 if there is any; write nothing")
	verboseFlag(fs, &o.verbose)
	outputFlag(fs, &o.output, "report format with -w or --check: text, or json (one document on standard output: the files, errors, warnings, bounds added and notes; docs/rewrite.md)", "text", "json")
	return fs
}

func runTranslate(c *command, e *env, args []string) int {
	var o translateOptions
	fs := translateFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if msg := o.conflict(fs.Args()); msg != "" {
		e.usageError(c, "%s", msg)
		return exitUsage
	}
	in, usage, diags := o.inputs.load(fs)
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	inputs, more := batch.Collect(fs.Args(), e.stdin)
	diags = append(diags, more...)
	tr := in.translate(e.translate)
	var results []*batch.Result
	census := &batch.Census{}
	progress := newProgress(e, "translate")
	for i, input := range inputs {
		r := batch.Translate(input, tr)
		progress.inputs(i+1, len(inputs))
		results = append(results, r)
		diags = append(diags, r.Diags...)
		if o.check {
			diags = append(diags, checkErrors(r.Reformatted)...)
		}
		notes := census.Add(input.Name, r.File)
		if o.output == "text" {
			printDiags(e, notes)
			printDiags(e, r.Warnings)
			if !o.check {
				printDiags(e, r.Reformatted)
			}
			if o.verbose {
				printAll(e, r.Details)
			}
		}
	}
	unusedWarnings, unusedErrs := in.unused()
	diags = append(diags, unusedErrs...)
	if len(diags) == 0 {
		diags = census.NoCRD(fs.Args())
	}
	if len(diags) == 0 && declaring(results) == 0 {
		// Nothing declared: the output would be the input, and --check
		// would pass on CRDs whose declarations were lost.
		diags = []batch.Diagnostic{in.noDeclarations(fs.Args())}
	}
	if o.output == "json" {
		return reportJSON(e, results, diags, unusedWarnings, census.Notes(), o)
	}
	printDiags(e, unusedWarnings)
	if len(diags) > 0 {
		printDiags(e, firstReasons(diags, o.verbose))
		return exitError
	}
	switch {
	case o.write:
		return writeInPlace(e, results)
	case o.check || o.diff:
		return reportChanges(e, results, o)
	}
	return writeTranslated(e, results)
}

// conflict explains a combination of flags and arguments that cannot work.
func (o *translateOptions) conflict(paths []string) string {
	switch {
	case badOutput(o.output, "text", "json") != "":
		return badOutput(o.output, "text", "json")
	case o.output == "json" && (o.diff || !(o.write || o.check)):
		return "-o json reports on -w or --check; without them translate prints the manifests, and --diff a diff"
	}
	if !o.write {
		return ""
	}
	if o.check || o.diff {
		return "-w cannot be combined with --check or --diff, which write nothing"
	}
	if len(paths) == 0 {
		return "-w rewrites files: name them (standard input cannot be rewritten)"
	}
	for _, p := range paths {
		if p == "-" {
			return "-w rewrites files: standard input (-) cannot be rewritten"
		}
	}
	return ""
}

// checkErrors makes the warnings that a document would be reformatted
// errors of --check: a check must not pass on a file that -w would
// rewrite beyond its edits.
func checkErrors(reformatted []batch.Diagnostic) []batch.Diagnostic {
	var errs []batch.Diagnostic
	for _, d := range reformatted {
		d.Severity = diag.Error
		d.Detail = "--check: " + d.Detail
		errs = append(errs, d)
	}
	return errs
}

// declaring counts the CRDs the translations worked on.
func declaring(results []*batch.Result) int {
	n := 0
	for _, r := range results {
		n += r.Declaring
	}
	return n
}

// printDiags prints diagnostics on standard error, at most
// batch.MaxPerFile for each file (batch.Capped).
func printDiags(e *env, diags []batch.Diagnostic) {
	printAll(e, batch.Capped(diags))
}

// shownReasons is how many reasons of one refusal translate and patch
// print without -v: enough to see what stands in the way, in a few lines.
const shownReasons = 3

// firstReasons keeps the first shownReasons reasons of each refusal in
// diags, counting the others, unless verbose asks for every one.
func firstReasons(diags []batch.Diagnostic, verbose bool) []batch.Diagnostic {
	if verbose {
		return diags
	}
	out := make([]batch.Diagnostic, len(diags))
	for i, d := range diags {
		out[i] = d.FirstReasons(shownReasons, "(-v lists them)")
	}
	return out
}

// printAll prints every diagnostic, as -v asks for.
func printAll(e *env, diags []batch.Diagnostic) {
	for _, d := range batch.WithFlagHints(diags) {
		fmt.Fprintln(e.stderr, d.Wrapped())
	}
}

// writeTranslated writes the outputs of all inputs as one stream. Output
// is built in memory first so that a failure leaves stdout empty. A
// failed write is runWith's to report, as for every command.
func writeTranslated(e *env, results []*batch.Result) int {
	parts := make([][]byte, len(results))
	for i, r := range results {
		parts[i] = r.Output()
	}
	e.stdout.Write(batch.Join(parts))
	return exitOK
}

func writeInPlace(e *env, results []*batch.Result) int {
	written, diags := batch.WriteInPlace(results)
	if len(diags) > 0 {
		printDiags(e, diags)
		return exitError
	}
	fmt.Fprintf(e.stderr, "mut2cel translate: %s\n", rewriteSummary(len(written), len(results)))
	return exitOK
}

// rewriteSummary is the one line -w ends with: a run that printed nothing
// left the user to guess whether any file was touched.
func rewriteSummary(written, inputs int) string {
	unchanged := inputs - written
	switch {
	case written == 0:
		return fmt.Sprintf("no file changed (%s already up to date)", counted(unchanged, "file"))
	case unchanged == 0:
		return fmt.Sprintf("rewrote %s", counted(written, "file"))
	}
	return fmt.Sprintf("rewrote %s, %d already up to date", counted(written, "file"), unchanged)
}

// counted renders n nouns: "1 file", "2 files".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// reportChanges lists (--check) and shows (--diff) the files that would
// change, in input order, like gofmt -l -d.
func reportChanges(e *env, results []*batch.Result, o translateOptions) int {
	changed := false
	for _, r := range results {
		if !r.Changed() {
			continue
		}
		changed = true
		if o.check {
			fmt.Fprintln(e.stdout, r.Input.Name)
		}
		if o.diff {
			e.stdout.Write(diff.Unified(r.Input.Name, r.Input.Name, r.Input.Data, r.Output()))
		}
	}
	if changed {
		// Like diff and kubectl diff: 1 when there is a difference.
		return exitFinding
	}
	return exitOK
}
