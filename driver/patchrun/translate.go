package patchrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/backend/kustomize"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/translate"
)

// Translate translates the CRD documents of one input with tr, as
// mut2cel translate does, and returns each as a CRD to patch, with the
// result of the translation: its diagnostics, and its warnings and
// details, among them the bounds the patches add, which narrow what the
// apiserver accepts and so are never left unsaid.
func Translate(in batch.Input, tr batch.Translator) ([]kustomize.Translation, *batch.Result) {
	var results []*translate.Result
	r := batch.Translate(in, func(doc map[string]interface{}) (*translate.Result, error) {
		res, err := tr(doc)
		if err == nil {
			results = append(results, res)
		}
		return res, err
	})
	var crds []kustomize.Translation
	for _, res := range results {
		c := kustomize.Translation{Name: (batch.InputCRD{Value: res.Base}).Name(), Base: res.Base, Translated: res.Translated}
		if res.Plan != nil {
			c.KubeVersion = res.Plan.KubeVersion.String()
		}
		crds = append(crds, c)
	}
	return crds, r
}

// Duplicates reports each CRD given again after its first: kustomize
// would apply both patches to the one CRD, the second to what the first
// made of it.
func Duplicates(crds []kustomize.Translation) []batch.Diagnostic {
	var diags []batch.Diagnostic
	seen := map[string]bool{}
	for _, c := range crds {
		if seen[c.Name] {
			diags = append(diags, batch.Diagnostic{Detail: fmt.Sprintf("CustomResourceDefinition %s is given twice: a component patches each CRD once", c.Name)})
		}
		seen[c.Name] = true
	}
	return diags
}
