package policyrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/translate"
)

// Run compiles the CRDs of the inputs and of the built-in kinds, and
// writes the policies o asks for: into o.Dir with their kustomization,
// or on standard output.
func Run(o Options) batch.Outcome {
	loop := &batch.Loop{Paths: o.Paths, Stdin: o.Stdin, Reporter: o.Reporter, Problems: o.Problems}
	var inputs []batch.Input
	if len(o.Paths) > 0 || len(o.Builtins) == 0 {
		inputs = loop.Inputs()
	}
	vehicles, more := Vehicles(o.Builtins, o.Inputs.Sets)
	inputs, loop.Problems = append(inputs, vehicles...), append(loop.Problems, more...)
	tr := o.Inputs.Translate(compileForPolicies)
	var files []File
	var notes []batch.Diagnostic
	for i, input := range inputs {
		r := Build(input, tr, o)
		loop.Done(i, len(inputs), input, r.File)
		files, loop.Problems, notes = append(files, r.Files...), append(loop.Problems, r.Diags...), append(notes, r.Notes...)
	}
	unusedWarnings, unusedErrs := o.Inputs.Unused()
	o.Reporter.Say(unusedWarnings)
	loop.Problems = append(loop.Problems, unusedErrs...)
	loop.Problems = append(loop.Problems, Duplicates(files)...)
	loop.NoCRD()
	if len(loop.Problems) == 0 && len(files) == 0 {
		if o.Validate {
			loop.Problems = []batch.Diagnostic{NothingDeclared(o.Paths, "--declarations", "--markers")}
		} else {
			loop.Problems = []batch.Diagnostic{NoUnions(o.Paths, "--declarations", "--markers")}
		}
	}
	if len(loop.Problems) > 0 {
		return batch.Failed(batch.FirstReasons(loop.Problems, false))
	}
	// One line per validating policy: up to which object sizes it is
	// sure to run (docs/cost.md).
	o.Reporter.Say(notes)
	if o.Dir == "" {
		return batch.Outcome{Stdout: Stdout(files)}
	}
	written, err := Write(o.Dir, files)
	if err != nil {
		return batch.Outcome{Exit: batch.ExitError, Summary: fmt.Sprintf("mut2cel policy: %v", err)}
	}
	what := fmt.Sprintf("%d policies and their bindings", len(files))
	if len(files) == 1 {
		what = "1 policy and its binding"
	}
	return batch.Outcome{Summary: fmt.Sprintf("mut2cel policy: wrote %s, and %s listing them", what, written[len(written)-1])}
}

// compileForPolicies compiles a CRD for the policy back end
// (translate.CompileForPolicies).
func compileForPolicies(doc map[string]interface{}, opts translate.Options) (*translate.Result, error) {
	p, err := translate.CompileForPolicies(doc, opts)
	if err != nil {
		return nil, err
	}
	return &translate.Result{Plan: p}, nil
}
