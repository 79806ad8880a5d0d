package inferrun

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/infer"
	"github.com/mut2cel/mut2cel/internal/diag"
	"github.com/mut2cel/mut2cel/translate"
)

// Translator translates one CRD document with the given options, as
// translate.Translate does (inputs.Translator).
type Translator func(doc map[string]interface{}, opts translate.Options) (*translate.Result, error)

// Proposed is what is proposed for one CRD.
type Proposed struct {
	CRD    batch.InputCRD
	Model  *crd.CRD
	Result *infer.Result
	// Translation is the CRD translated with the sure proposals, which
	// translate accepts; nil when none is sure, or when translate refuses
	// the CRD for reasons at no proposal (Unplaced).
	Translation *translate.Result
	// Unplaced are translate's problems at no proposal: the proposals
	// are written as they are, unchecked.
	Unplaced []batch.Diagnostic
}

// vetName names the proposals in what translate reports while vetting
// them; no message the user sees carries it.
const vetName = "proposals"

// Propose reads c, infers its declarations and has tr, with opts, vet
// the sure ones: what it refuses is commented out with its reason. A CRD
// that cannot be read as a model, or decoded as the apiserver decodes it,
// is a problem at its document.
func Propose(c batch.InputCRD, opts translate.Options, tr Translator) (*Proposed, []batch.Diagnostic) {
	if tr == nil {
		tr = translate.Translate
	}
	model, err := crd.Read(c.Value)
	if err == nil {
		// What the apiserver would not decode is no CRD to propose for.
		if _, terr := model.Typed(); terr != nil {
			err = fmt.Errorf("decoding the CRD: %w", terr)
		}
	}
	if err != nil {
		return nil, c.Diags(err)
	}
	p := &Proposed{CRD: c, Model: model, Result: infer.Infer(model)}
	if len(infer.Sets(vetName, []*infer.Result{p.Result})) == 0 {
		return p, nil
	}
	var last *translate.Result
	unplaced := p.Result.Vet(vetName, func(sets []decl.Set) []diag.Diagnostic {
		o := opts
		o.Declarations = append(append([]decl.Set(nil), opts.Declarations...), sets...)
		res, err := tr(runtime.DeepCopyJSON(c.Value), o)
		last = res
		var terr *translate.Error
		switch {
		case errors.As(err, &terr):
			return terr.Problems
		case err != nil:
			return []diag.Diagnostic{{Detail: err.Error()}}
		}
		return nil
	})
	if len(unplaced) > 0 {
		for _, u := range unplaced {
			d := c.At
			d.Severity = diag.Warning
			d.Detail = "translate refuses the CRD with the proposals, for a reason at none of them, so they are written unchecked: " + u.String()
			p.Unplaced = append(p.Unplaced, d)
		}
		return p, nil
	}
	if len(infer.Sets(vetName, []*infer.Result{p.Result})) > 0 {
		p.Translation = last
	}
	return p, nil
}
