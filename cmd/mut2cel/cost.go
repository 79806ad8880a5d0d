package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mut2cel/mut2cel/internal/driver/audit"
	"github.com/mut2cel/mut2cel/internal/driver/batch"
	"github.com/mut2cel/mut2cel/internal/io/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

var costCommand = &command{
	name: "cost", args: "[flags] [PATH...]",
	summary: "report the estimated CEL cost of every CRD rule",
	help: `Estimates, as the apiserver does when the CRD is applied, the CEL cost of
every x-kubernetes-validations rule and messageExpression of every
CustomResourceDefinition in the input. A CRD with mutability declarations is
audited as "mut2cel translate" would write it: the generated rules are
marked, and the bounds translate adds are listed.

For each CRD version the report gives every rule's cost (estimated cost per
call times the number of times it can run per object), its share of the
per-expression limit, the version total, every limit crossed, and the
maxLength, maxItems or maxProperties that would bring a rule under the
limits. docs/cost.md explains the numbers and the JSON format.

PATH is a regular file, or a directory searched recursively for *.yaml,
*.yml and *.json files. "-" or no PATH reads standard input, the only way
to read a pipe or a device: a PATH that is one is an error, as is a PATH,
or standard input, that holds no manifest. Documents that are not CRDs
are skipped, and counted on standard error, one line an input; inputs
that hold no CRD at all are an error. A CRD whose declarations
cannot be translated is an input error (2), not a cost finding. When
standard error is a terminal, a run longer than a second reports there,
once a second, how many inputs are done.
`,
	finding: "some CRD is over a static limit: the apiserver would reject it",
}

func init() {
	costCommand.flags = func() *pflag.FlagSet { return costFlags(&costOptions{}) }
	costCommand.run = runCost
}

type costOptions struct {
	kube        kubeVersionFlag
	format      string
	allVersions bool
	formats     bool
}

func costFlags(o *costOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("cost", pflag.ContinueOnError)
	kubeVersionVar(fs, &o.kube)
	outputFlag(fs, &o.format, "output format: text or json", "text", "json")
	// The flag's first name, kept for the scripts that use it.
	fs.StringVar(&o.format, "format", "text", "output format: text or json")
	fs.MarkHidden("format")
	allVersionsFlag(fs, &o.allVersions)
	formatsFlag(fs, &o.formats)
	return fs
}

func runCost(c *command, e *env, args []string) int {
	var o costOptions
	fs := costFlags(&o)
	if code, done := c.parseFlags(e, fs, args); done {
		return code
	}
	if msg := badOutput(o.format, "text", "json"); msg != "" {
		e.usageError(c, "%s", msg)
		return exitUsage
	}
	inputs, diags := batch.Collect(fs.Args(), e.stdin)
	opts := translate.Options{KubeVersion: translate.KubeVersion(o.kube), AllServedVersions: o.allVersions, CompareFormatsAsValues: o.formats}
	report := &audit.Report{KubeVersion: opts.KubeVersion.String(), CRDs: []audit.CRD{}}
	census := &batch.Census{}
	progress := newProgress(e, "cost")
	for i, in := range inputs {
		crds, f, d := auditInput(in, opts)
		progress.inputs(i+1, len(inputs))
		printDiags(e, census.Add(in.Name, f))
		report.CRDs = append(report.CRDs, crds...)
		diags = append(diags, d...)
	}
	if len(diags) == 0 {
		diags = census.NoCRD(fs.Args())
	}
	if len(diags) > 0 {
		printDiags(e, diags)
		return exitError
	}
	if err := writeCostReport(e, report, o.format); err != nil {
		fmt.Fprintf(e.stderr, "mut2cel cost: %v\n", err)
		return exitError
	}
	if report.Rejected() {
		return exitFinding
	}
	return exitOK
}

// auditInput audits every CRD document of one input, and returns it as
// parsed (nil when it does not parse).
func auditInput(in batch.Input, opts translate.Options) ([]audit.CRD, *manifest.File, []batch.Diagnostic) {
	var crds []audit.CRD
	f, diags := batch.EachCRD(in, func(d *manifest.Document, crd batch.CRD) error {
		audited, err := audit.Document(in.Name, d.Index(), crd.Value, opts)
		if err == nil {
			crds = append(crds, *audited)
		}
		return err
	})
	return crds, f, diags
}

func writeCostReport(e *env, r *audit.Report, format string) error {
	if format == "text" {
		return audit.WriteText(printableWriter{e.stdout}, r)
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false) // rules are full of && and <
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
