package patchrun

import (
	"errors"
	"fmt"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
)

// Options are a run of patch.
type Options struct {
	inputs.Run
	// Dir is the component's directory.
	Dir     string
	Verbose bool
}

// Run translates the inputs and writes the kustomize component that
// patches their published CRDs into their translations.
func Run(o Options) batch.Outcome {
	loop := &batch.Loop{Paths: o.Paths, Stdin: o.Stdin, Reporter: o.Reporter, Problems: o.Problems}
	inputs := loop.Inputs()
	tr := o.Inputs.Translate(o.Translator)
	var crds []kustomize.Translation
	for i, input := range inputs {
		found, r := Translate(input, tr)
		loop.Done(i, len(inputs), input, r.File)
		o.Reporter.Say(r.Warnings)
		if o.Verbose {
			o.Reporter.SayAll(r.Details)
		}
		crds, loop.Problems = append(crds, found...), append(loop.Problems, r.Diags...)
	}
	unusedWarnings, unusedErrs := o.Inputs.Unused()
	o.Reporter.Say(unusedWarnings)
	loop.Problems = append(loop.Problems, unusedErrs...)
	loop.Problems = append(loop.Problems, Duplicates(crds)...)
	loop.NoCRD()
	if len(loop.Problems) > 0 {
		return batch.Failed(batch.FirstReasons(loop.Problems, o.Verbose))
	}
	out, err := kustomize.Kustomization(crds)
	if errors.Is(err, kustomize.ErrNoPatches) {
		// An empty component would pass for one that translates.
		return batch.Failed([]batch.Diagnostic{o.Inputs.NoDeclarations(o.Paths)})
	}
	var path string
	if err == nil {
		path, err = Write(o.Dir, out)
	}
	if err != nil {
		return batch.Outcome{Exit: batch.ExitError, Summary: fmt.Sprintf("mut2cel patch: %v", err)}
	}
	return batch.Outcome{Summary: fmt.Sprintf("mut2cel patch: wrote %s, translating %s", path, batch.Counted(len(crds), "CRD"))}
}
