package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/internal/batch"
	"github.com/mut2cel/mut2cel/translate"
)

var translateCommand = &command{
	name: "translate", args: "[flags] [PATH...]",
	summary: "rewrite CRD manifests with the generated rules",
	help: `Translates every CustomResourceDefinition in the input: each mutability
declaration is removed and the x-kubernetes-validations rules that enforce
it are added. All documents, translated or not, are written to standard
output in input order; lines the translation does not concern are kept
byte for byte.

PATH is a file, or a directory searched recursively for *.yaml, *.yml and
*.json files in lexical order. "-" or no PATH reads standard input.

If any input cannot be translated, every problem is reported on standard
error, nothing is written, and the exit status is 1.
`,
}

// translateFunc is translate.Translate; tests put a stand-in here.
var translateFunc = translate.Translate

// translateOptions are the flags of translate.
type translateOptions struct {
	kube                               kubeVersionFlag
	maxLength, maxItems, maxProperties int64
	noBounds                           bool
}

func init() {
	translateCommand.flags = func() *pflag.FlagSet { return translateFlags(&translateOptions{}) }
	translateCommand.run = runTranslate
}

func translateFlags(o *translateOptions) *pflag.FlagSet {
	o.kube = kubeVersionFlag(translate.DefaultKubeVersion)
	fs := pflag.NewFlagSet("translate", pflag.ContinueOnError)
	fs.Var(&o.kube, "kube-version", fmt.Sprintf(
		"oldest Kubernetes version (%s to %s) the rules must work on", translate.MinKubeVersion, translate.MaxKubeVersion))
	fs.Int64Var(&o.maxLength, "max-length", 0, "maxLength to add where generated rules need one (default: the largest round value that fits)")
	fs.Int64Var(&o.maxItems, "max-items", 0, "maxItems to add where generated rules need one (default: the largest round value that fits)")
	fs.Int64Var(&o.maxProperties, "max-properties", 0, "maxProperties to add where generated rules need one (default: the largest round value that fits)")
	fs.BoolVar(&o.noBounds, "no-bounds", false, "fail, listing the bounds needed, instead of adding bounds")
	return fs
}

func runTranslate(c *command, e *env, args []string) int {
	var o translateOptions
	fs := translateFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	inputs, diags := batch.Collect(fs.Args(), e.stdin)
	opts := translate.Options{KubeVersion: translate.KubeVersion(o.kube),
		MaxLength: o.maxLength, MaxItems: o.maxItems, MaxProperties: o.maxProperties, NoBounds: o.noBounds}
	tr := func(doc map[string]interface{}) (*translate.Result, error) { return translateFunc(doc, opts) }
	var results []*batch.Result
	var notes []batch.Diagnostic
	for _, in := range inputs {
		r := batch.Translate(in, tr)
		results = append(results, r)
		diags = append(diags, r.Diags...)
		notes = append(notes, r.Notes...)
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(e.stderr, d)
		}
		return exitFailure
	}
	for _, n := range notes {
		fmt.Fprintln(e.stderr, n)
	}
	return writeTranslated(e, results)
}

// writeTranslated writes the outputs of all inputs as one stream. Output
// is built in memory first so that a failure leaves stdout empty.
func writeTranslated(e *env, results []*batch.Result) int {
	parts := make([][]byte, len(results))
	for i, r := range results {
		parts[i] = r.Output()
	}
	if _, err := e.stdout.Write(batch.Join(parts)); err != nil {
		fmt.Fprintf(e.stderr, "mut2cel translate: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// kubeVersionFlag is a translate.KubeVersion as a flag; a bad value is a
// usage error.
type kubeVersionFlag translate.KubeVersion

func (f *kubeVersionFlag) String() string { return translate.KubeVersion(*f).String() }
func (f *kubeVersionFlag) Type() string   { return "X.Y" }

func (f *kubeVersionFlag) Set(s string) error {
	v, err := translate.ParseKubeVersion(s)
	if err != nil {
		return err
	}
	*f = kubeVersionFlag(v)
	return nil
}
