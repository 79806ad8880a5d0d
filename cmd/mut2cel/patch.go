package main

import (
	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/driver/patchrun"
)

var patchCommand = &command{
	name: "patch", args: "--dir OUT [flags] [PATH...]",
	summary: "write a kustomize component that translates CRDs you do not own",
	help: `Writes OUT/kustomization.yaml, a kustomize Component whose JSON6902
patches turn the published CRDs into what translate makes of the given
ones. The given CRDs are the published ones with declarations added, in
the schema or in the mut2cel.io/declarations annotation; the patches
apply to the CRDs as published, without them. Add the component next to
the original resources:

  resources: [https://example.com/crds.yaml]
  components: [OUT]

Each patch names its CRD by group, version, kind and name, and tests the
name of every version it changes, so that a CRD whose versions moved
fails the build rather than being patched in the wrong place. Rules are
appended to existing lists and annotations added one by one; where a
patch must create a rule list or set a bound, it first tests that the
node is still absent, so that a later upstream release that added one
fails the build rather than losing it.

Bounds the patches add (maxLength, maxItems, maxProperties) narrow what
the apiserver accepts, and are reported on standard error as translate
reports them: a summary per version, each bound with -v. The flags that
shape the translation are translate's; --markers is refused, as markers
declare for CRDs built from Go packages you own, which translate -w
rewrites.

PATH is as for translate; documents that are not CRDs are skipped, and
counted on standard error. Inputs that declare nothing, which would make
a component that patches nothing, are an error. Where OUT holds a
kustomization already, under any name kustomize reads
(kustomization.yaml, kustomization.yml or Kustomization), that file is
written, and replaced only if mut2cel wrote it; OUT holding two of them is
an error, as for kustomize. If any input cannot be read or translated, or
the file cannot be written, every problem is reported, nothing is
written (a directory patch created is removed again), and the exit status
is 2; a declaration refused for several reasons lists the first three and
counts the others, all of them with -v. When
standard error is a terminal, a run longer than a second reports there,
once a second, how many inputs are done.
`,
	finding: "never: patch checks nothing",
}

type patchOptions struct {
	inputs  translateInputFlags
	dir     string
	verbose bool
}

// patchRefuses are the shared flags patch does not take, and why.
var patchRefuses = map[string]string{
	"markers": "markers declare for CRDs generated from Go packages you own, and controller-gen's rules they replace are not in the published CRDs a component patches; " +
		"rewrite those CRDs with translate -w --markers, or declare for a published CRD in a --declarations file",
}

func init() {
	patchCommand.flags = func() *pflag.FlagSet { return patchFlags(&patchOptions{}) }
	patchCommand.run = runPatch
}

func patchFlags(o *patchOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("patch", pflag.ContinueOnError)
	o.inputs.register(fs, "patch", patchRefuses)
	fs.StringVar(&o.dir, "dir", "", "directory of the component (required)")
	fs.SetAnnotation("dir", completeAnnotation, []string{completeDirs})
	verboseFlag(fs, &o.verbose)
	return fs
}

func runPatch(c *command, e *env, args []string) int {
	var o patchOptions
	fs := patchFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if o.dir == "" {
		e.usageError(c, "--dir is required")
		return exitUsage
	}
	run, usage := o.inputs.run(e, fs)
	if usage != "" {
		e.usageError(c, "%s", usage)
		return exitUsage
	}
	return finish(e, patchrun.Run(patchrun.Options{Run: run, Dir: o.dir, Verbose: o.verbose}))
}
