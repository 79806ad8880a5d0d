package main

import (
	"context"
	"io"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/auditrun"
	"github.com/mut2cel/mut2cel/driver/inferrun"
)

var auditCommand = &command{
	name: "audit", args: "[flags] [PATH...] | --cluster [flags] [CRD...]",
	summary: "report which guarantees CRDs document and whether their rules enforce them",
	help: `Reports, for every CRD and field, the guarantee the CRD documents, and
whether its published x-kubernetes-validations rules enforce it: exactly,
with holes, or not at all. The guarantees are what mut2cel infer proposes
from the CRD's rules and descriptions (docs/infer.md); each sure proposal
is checked as verify --against checks a published CRD against
declarations: --pairs generated updates per served version (default
500), judged by the rules with the apiserver's CEL validator in process
and by the reference checker of docs/semantics.md. A hole is shown with
the first update it lets through, shrunk: create the old object, then
update it to the new one. For each guarantee not enforced exactly the
report gives the rules mut2cel would add (translate with the proposals)
and the cost the apiserver estimates for each. Proposals that are not
sure are listed, not checked. docs/audit.md describes the report and its
JSON form (-o json).

Findings are sorted by risk: not enforced, then holes, then untested
(some constraint no judged update broke; more --pairs may test it), then
enforced; within each, holes that let a value change before those that
let a field come or go, then by CRD and path.

PATH is a regular file, or a directory searched recursively for *.yaml,
*.yml and *.json files. "-" or no PATH reads standard input. Documents
that are not CRDs are skipped, and counted on standard error; inputs that
hold no CRD are an error. With --cluster, --kubeconfig or --context, the
CRDs are those a live cluster serves, read as kubectl reaches it with GET
requests only: nothing is written to the cluster. The arguments are then
CRD names; with none, every CRD, or those of --group.

--jobs CRDs are checked at once; the report does not depend on it. When
standard error is a terminal, a run longer than a second reports there,
once a second, how many CRDs are done (-q: never). The heap is kept under
a soft limit of 1 GiB, as for verify, unless GOMEMLIMIT is set.
`,
	finding: "some documented guarantee is not enforced by the published rules, or has holes",
}

func init() {
	auditCommand.flags = func() *pflag.FlagSet { return auditFlags(&auditOptions{}) }
	auditCommand.run = runAudit
}

type auditOptions struct {
	cluster clusterFlags
	kube    kubeVersionFlag
	pairs   int
	seed    int64
	jobs    int
	quiet   bool
	output  string
}

func auditFlags(o *auditOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("audit", pflag.ContinueOnError)
	o.cluster.register(fs)
	kubeVersionVar(fs, &o.kube)
	fs.IntVar(&o.pairs, "pairs", auditrun.DefaultPairs, "updates checked per CRD version")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the generated updates; the same seed checks the same updates")
	fs.IntVar(&o.jobs, "jobs", runtime.GOMAXPROCS(0), "CRDs checked at once; the report does not depend on it")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print no progress")
	outputFlag(fs, &o.output, "output format: text or json", "text", "json")
	return fs
}

func runAudit(c *command, e *env, args []string) int {
	var o auditOptions
	fs := auditFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if o.pairs <= 0 || o.jobs <= 0 {
		e.usageError(c, "--pairs and --jobs must be positive, got %d and %d", o.pairs, o.jobs)
		return exitUsage
	}
	if msg := badOutput(o.output, "text", "json"); msg != "" {
		e.usageError(c, "%s", msg)
		return exitUsage
	}
	src, usage := o.cluster.source(e, fs.Args())
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	rep := newReporter(e, "audit")
	progress := rep.progress.crds
	if o.quiet {
		rep.progress, progress = nil, nil
	}
	return finish(e, auditrun.Run(context.Background(), auditrun.Options{Source: src,
		Translate: targetOptions(fs, o.kube), Translator: inferrun.Translator(e.translate),
		Pairs: o.pairs, Seed: o.seed, Jobs: o.jobs, JSON: o.output == "json",
		Text: func(w io.Writer) io.Writer { return printableWriter{w} }, Progress: progress, Reporter: rep}))
}
