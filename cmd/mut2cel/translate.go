package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/translaterun"
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
	run, usage := o.inputs.run(e, fs)
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	return finish(e, translaterun.Run(translaterun.Options{Run: run,
		Write: o.write, Check: o.check, Diff: o.diff, JSON: o.output == "json", Verbose: o.verbose}))
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

// printDiags prints diagnostics on standard error, at most
// batch.MaxPerFile for each file (batch.Capped).
func printDiags(e *env, diags []batch.Diagnostic) {
	printAll(e, batch.Capped(diags))
}

// printAll prints every diagnostic, as -v asks for.
func printAll(e *env, diags []batch.Diagnostic) {
	for _, d := range batch.WithFlagHints(diags) {
		fmt.Fprintln(e.stderr, d.Wrapped())
	}
}
