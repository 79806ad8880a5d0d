package main

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/inferrun"
	"github.com/mut2cel/mut2cel/driver/inputs"
)

var inferCommand = &command{
	name: "infer", args: "[flags] [PATH...] | --cluster [flags] [CRD...]",
	summary: "propose declarations from what CRDs say, with their evidence",
	help: `Proposes declarations for CRDs you do not own, from what each already says:
its published x-kubernetes-validations rules, read by their shape (self ==
oldSelf and its variants, set-once forms, presence ties, union counts and
discriminator ties), and the sentences of its descriptions ("This field is
immutable.", "immutable once set"), read by the documented table of
docs/infer.md. The output is a declarations file, ready for translate,
patch, policy, cost and verify --declarations; each proposal has its
evidence as comments above it, quoted with its version and schema path.

Precision comes first: a proposal that is not sure (a rule that holds
under a condition, a conditional or hedged sentence, a sentence about
another field or another object) is written commented out, saying why,
and so is one translate refuses, with translate's reason (the target is
--kube-version). Where the published rules enforce less than the text
says, the proposal follows the text, and a note says so: mut2cel audit
checks those rules.

PATH is a regular file, or a directory searched recursively for *.yaml,
*.yml and *.json files. "-" or no PATH reads standard input. Documents
that are not CRDs are skipped, and counted on standard error; inputs that
hold no CRD are an error.

With --cluster, --kubeconfig or --context, the CRDs are those a live
cluster serves, read as kubectl reaches it ($KUBECONFIG, ~/.kube/config,
the current context, or a pod's service account) with GET requests only:
nothing is written to the cluster. The arguments are then CRD names
(<plural>.<group>); with none, every CRD, or those of --group. A CRD read
from a cluster gives the same declarations as its manifest.

The declarations go to standard output, or with --out to a file, written
atomically; --out replaces only a file that infer wrote. A count of the
proposals ends the run on standard error. When standard error is a
terminal, a run longer than a second reports there how many CRDs are done.
`,
	finding: "never: infer checks nothing (mut2cel audit does)",
}

func init() {
	inferCommand.flags = func() *pflag.FlagSet { return inferFlags(&inferOptions{}) }
	inferCommand.run = runInfer
}

type inferOptions struct {
	cluster clusterFlags
	kube    kubeVersionFlag
	out     string
}

func inferFlags(o *inferOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("infer", pflag.ContinueOnError)
	o.cluster.register(fs)
	kubeVersionVar(fs, &o.kube)
	fs.StringVar(&o.out, "out", "", "write the declarations to this file instead of standard output")
	return fs
}

func runInfer(c *command, e *env, args []string) int {
	var o inferOptions
	fs := inferFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	src, usage := o.cluster.source(e, fs.Args())
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	rep := newReporter(e, "infer")
	return finish(e, inferrun.Run(context.Background(), inferrun.Options{Source: src,
		Translate: targetOptions(fs, o.kube), Translator: inferrun.Translator(e.translate),
		Out: o.out, Progress: rep.progress.crds, Reporter: rep}))
}

// targetOptions are the translate options of a command that takes only
// --kube-version: given, it wins over what a CRD records.
func targetOptions(fs *pflag.FlagSet, kube kubeVersionFlag) inputs.TranslateOptions {
	return inputs.Target(inputs.KubeVersion(kube), fs.Changed("kube-version"))
}
