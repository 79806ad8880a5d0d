package policyrun

import (
	"fmt"
	"maps"
	"slices"

	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/frontend/builtin"
)

// Vehicles returns an input per built-in resource of the run: the CRD
// document that carries the kind to the compiler (builtin.CRD), made from
// client-go's schema or from the resource's OpenAPI document. The
// declaration sets that name the resource (crd: deployments.apps) are
// renamed to the vehicle's name, which the compiler matches them by; the
// policies are written for the resource itself (Options.Builtins). A
// field declared below a node that the resource's OpenAPI document says
// holds any value is a diagnostic at its line, and is not compiled.
func Vehicles(builtins map[string]builtin.Resource, sets *batch.DeclarationSets) ([]batch.Input, []batch.Diagnostic) {
	names := slices.Sorted(maps.Keys(builtins))
	var inputs []batch.Input
	var diags []batch.Diagnostic
	for _, name := range names {
		r := builtins[name]
		doc, err := builtin.CRD(r)
		if err != nil {
			at := batch.Diagnostic{File: inputName(r), Detail: err.Error()}
			if r.OpenAPI != nil {
				at.File = "" // the error names the document and the schema
			}
			// The declarations of the resource are not unused: their
			// resource is, and the error says why.
			sets.See(map[string]interface{}{"metadata": map[string]interface{}{"name": r.Name()}})
			diags = append(diags, at)
			continue
		}
		data, err := yaml.Marshal(doc)
		if err != nil {
			diags = append(diags, batch.Diagnostic{File: inputName(r), Detail: err.Error()})
			continue
		}
		if sets != nil {
			for i := range sets.Sets {
				if sets.Sets[i].CRD == r.Name() {
					sets.Sets[i].CRD = r.VehicleName()
					diags = append(diags, opaque(r, &sets.Sets[i])...)
				}
			}
		}
		inputs = append(inputs, batch.Input{Name: inputName(r), Data: data})
	}
	return inputs, diags
}

// opaque reports, and takes out of the set, each field declared below a
// node that the resource's OpenAPI document says no more of than that it
// holds any value: the compiler would find no node there, and could not
// say why.
func opaque(r builtin.Resource, set *decl.Set) []batch.Diagnostic {
	var diags []batch.Diagnostic
	kept := set.Fields[:0]
	for _, f := range set.Fields {
		at, why, ok := r.Opaque(f.Path)
		if !ok {
			kept = append(kept, f)
			continue
		}
		diags = append(diags, batch.Diagnostic{File: f.Source.File, Line: f.Source.Line,
			Detail: fmt.Sprintf("%s: no schema node to declare on: %s describes %s of %s as %s", f.Path, r.OpenAPI.Name, at, r.GVK.Kind, why)})
	}
	set.Fields = kept
	return diags
}

// inputName is how diagnostics name the schema of a built-in kind, and
// the document it is read from.
func inputName(r builtin.Resource) string {
	if r.OpenAPI != nil {
		return fmt.Sprintf("%s of %s (%s)", r.GVK.String(), r.OpenAPI.Name, r.Name())
	}
	return fmt.Sprintf("built-in %s (%s)", r.GVK.GroupVersion().WithKind(r.GVK.Kind).String(), r.Name())
}
