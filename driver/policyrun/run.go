package policyrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/translate"
)

// Run compiles the CRDs of the inputs and of the built-in kinds, and
// writes the policies o asks for: into o.Dir with their kustomization,
// or on standard output.
func Run(o Options) batch.Outcome {
	loop := &batch.Loop{Paths: o.Paths, Stdin: o.Stdin, Reporter: o.Reporter, Problems: o.Problems}
	var docs []batch.Input
	if len(o.Paths) > 0 || len(o.Builtins) == 0 {
		docs = loop.Inputs()
	}
	vehicles, more := inputs.Vehicles(o.Builtins, o.Inputs.Sets)
	docs, loop.Problems = append(docs, vehicles...), append(loop.Problems, more...)
	tr := o.Inputs.Translate(compileForPolicies)
	var files []File
	var notes []batch.Diagnostic
	declares := false
	for i, input := range docs {
		r := Build(input, tr, o)
		loop.Done(i, len(docs), input, r.File)
		files, loop.Problems, notes = append(files, r.Files...), append(loop.Problems, r.Diags...), append(notes, r.Notes...)
		declares = declares || r.Declares
	}
	unusedWarnings, unusedErrs := o.Inputs.Unused()
	o.Reporter.Say(unusedWarnings)
	loop.Problems = append(loop.Problems, unusedErrs...)
	loop.Problems = append(loop.Problems, Duplicates(files)...)
	loop.NoCRD()
	if len(loop.Problems) == 0 && len(files) == 0 {
		loop.Problems = nothingToWrite(o, declares)
	}
	if len(loop.Problems) > 0 {
		return batch.Failed(batch.FirstReasons(loop.Problems, false))
	}
	// One line per validating policy, up to which object sizes it is
	// sure to run (docs/cost.md), and one per CRD whose declarations need
	// none.
	o.Reporter.Say(notes)
	return output(o, files)
}

// nothingToWrite is the error of a run that writes no policy, if it is
// one. Declarations that need no rule are none: translate takes them
// too, and the notes say that nothing is written for them.
func nothingToWrite(o Options, declares bool) []batch.Diagnostic {
	switch {
	case o.Validate && declares:
		return nil
	case o.Validate:
		return []batch.Diagnostic{NothingDeclared(o.Paths, "--declarations", "--markers")}
	}
	return []batch.Diagnostic{NoUnions(o.Paths, "--declarations", "--markers")}
}

// output prints the policies, or writes them into o.Dir with their
// kustomization; a run that needs none says so.
func output(o Options, files []File) batch.Outcome {
	if o.Dir == "" && len(files) == 0 {
		return batch.Outcome{Summary: "mut2cel policy: no policy needed, none printed"}
	}
	if o.Dir == "" {
		return batch.Outcome{Stdout: Stdout(files)}
	}
	written, err := Write(o.Dir, files)
	if err != nil {
		return batch.Outcome{Exit: batch.ExitError, Summary: fmt.Sprintf("mut2cel policy: %v", err)}
	}
	if len(files) == 0 {
		return batch.Outcome{Summary: fmt.Sprintf("mut2cel policy: no policy needed; wrote %s, which lists none", written[len(written)-1])}
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
