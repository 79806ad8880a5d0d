package costrun

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/translate"
)

// Options are a run of cost.
type Options struct {
	inputs.Run
	// All reports every CRD, not only those with declarations.
	All bool
	// JSON prints the report as JSON (docs/cost.md), else as text.
	JSON bool
	// Text writes the text report where stdout is printed: for a
	// terminal, printably.
	Text func(w io.Writer) io.Writer
}

// Run estimates the cost of the rules of every CRD of the inputs, as
// translate would write them, and reports them; a CRD the apiserver
// would reject for its rules' cost is a finding.
func Run(o Options) batch.Outcome {
	loop := &batch.Loop{Paths: o.Paths, Stdin: o.Stdin, Reporter: o.Reporter, Problems: o.Problems}
	inputs := loop.Inputs()
	tr := o.Inputs.Translator(o.Translator)
	report := &Report{KubeVersion: RunKubeVersion(o.Inputs.Options).String(), CRDs: []CRDCosts{}}
	undeclared := 0
	for i, input := range inputs {
		crds, f, d := costsOf(input, o.Inputs.Options, tr)
		loop.Done(i, len(inputs), input, f)
		for _, crd := range crds {
			if crd.Declared || o.All {
				report.CRDs = append(report.CRDs, crd)
			} else {
				undeclared++
			}
		}
		loop.Problems = append(loop.Problems, d...)
	}
	unusedWarnings, unusedErrs := o.Inputs.Unused()
	o.Reporter.Say(unusedWarnings)
	loop.Problems = append(loop.Problems, unusedErrs...)
	loop.NoCRD()
	if len(loop.Problems) == 0 && len(report.CRDs) == 0 {
		// Nothing declared: an empty report would read as "no finding".
		d := o.Inputs.NoDeclarations(o.Paths)
		d.Detail += "; --all reports the rules of every CRD"
		loop.Problems = []batch.Diagnostic{d}
	}
	if len(loop.Problems) > 0 {
		return batch.Failed(loop.Problems)
	}
	var said []string
	if undeclared > 0 {
		said = append(said, fmt.Sprintf("mut2cel cost: %s without declarations not reported (--all reports them)", batch.Counted(undeclared, "CRD")))
	}
	return finish(report, said, o)
}

// finish renders the report, after the lines said.
func finish(report *Report, said []string, o Options) batch.Outcome {
	var b bytesWriter
	var err error
	if o.JSON {
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // rules are full of && and <
		enc.SetIndent("", "  ")
		err = enc.Encode(report)
	} else {
		err = WriteText(o.Text(&b), report)
	}
	if err != nil {
		said = append(said, fmt.Sprintf("mut2cel cost: %v", err))
		return batch.Outcome{Exit: batch.ExitError, Summary: strings.Join(said, "\n")}
	}
	out := batch.Outcome{Stdout: b.data, Summary: strings.Join(said, "\n")}
	if report.Rejected() {
		out.Exit = batch.ExitFinding
	}
	return out
}

type bytesWriter struct{ data []byte }

func (b *bytesWriter) Write(p []byte) (int, error) { b.data = append(b.data, p...); return len(p), nil }

// costsOf estimates every CRD document of one input, translated by tr
// with opts, and returns the input as parsed (nil when it does not
// parse).
func costsOf(in batch.Input, opts translate.Options, tr inputs.Translator) ([]CRDCosts, *manifest.File, []batch.Diagnostic) {
	var crds []CRDCosts
	f, diags := batch.EachCRD(in, func(d *manifest.Document, crd batch.InputCRD) error {
		costs, err := Document(in.Name, d.Index(), crd.Value, opts, Translator(tr))
		if err == nil {
			crds = append(crds, *costs)
		}
		return err
	})
	return crds, f, diags
}
