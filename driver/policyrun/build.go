package policyrun

import (
	"errors"
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/batch"
	"github.com/mut2cel/mut2cel/driver/inputs"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/manifest"
	"github.com/mut2cel/mut2cel/plan"
)

// Header starts every file mut2cel policy writes; Write replaces only
// files that start with it.
const Header = "# Written by mut2cel policy: regenerate it rather than edit it.\n"

// Options are a run of policy: what it reads, and what it writes.
type Options struct {
	inputs.Run
	// Dir is the directory the policies are written into; empty prints
	// them.
	Dir string

	// Validate asks for the validating policies that enforce the
	// declarations; Normalize for the normalizing policies of the unions
	// (docs/semantics.md 11.7).
	Validate, Normalize bool
	Binding             policy.Options
	// Actions are the validating bindings' validationActions; nil is
	// [Deny].
	Actions []admissionregistrationv1.ValidationAction
	// Builtins are the built-in resources of the run, by the name of the
	// CRD document that carries each to the compiler
	// (builtin.Resource.VehicleName): their policies name the resource
	// itself.
	Builtins map[string]builtin.Resource
}

// File is one file of output: a policy and its binding.
type File struct {
	Name string // base name, <policy name>.yaml
	CRD  string
	Data []byte
}

// Result is what Build made of one input.
type Result struct {
	File  *manifest.File // nil when the input does not parse
	Files []File
	Diags []batch.Diagnostic
	// Notes report the cost of each validating policy, one line each
	// (costNote), and the versions whose declarations need no rule
	// (batch.UnenforcedNote); they do not fail the run.
	Notes []batch.Diagnostic
	// Declares says that a CRD of the input declares something.
	Declares bool
}

// Build compiles the CRDs of in with tr and makes the policies o asks
// for, in input order.
func Build(in batch.Input, tr batch.Translator, o Options) *Result {
	r := &Result{}
	var refusals []batch.Diagnostic
	r.File, r.Diags = batch.EachCRD(in, func(d *manifest.Document, c batch.InputCRD) error {
		res, err := tr(c.Value)
		if err != nil {
			return err
		}
		if res.Plan == nil {
			return nil
		}
		r.Declares = r.Declares || batch.Declares(res.Plan)
		if vs := batch.Unenforced(res.Plan); len(vs) > 0 && o.Validate {
			r.Notes = append(r.Notes, batch.UnenforcedNote(c.At, vs, "no validating policy"))
		}
		model, err := crd.Read(c.Value)
		if err != nil {
			return err
		}
		files, costs, err := policies(res.Plan, model, o)
		var refused *policy.Error
		if errors.As(err, &refused) {
			refusals = append(refusals, refusalDiags(c, d, refused, o)...)
			if u := (unserved{}); errors.As(err, &u) {
				refusals = append(refusals, c.Diags(u.error)...)
			}
			return nil
		}
		r.Files = append(r.Files, files...)
		for _, cost := range costs {
			r.Notes = append(r.Notes, costNote(c.At, d, model, cost))
		}
		return err
	})
	r.Diags = append(r.Diags, refusals...)
	return r
}

// policies renders the policies of the kinds o asks for, the validating
// ones first, with the cost of each validating one; every refusal of
// either kind is reported together, and so is every kind the target
// version does not serve.
func policies(p *plan.Plan, model *crd.CRD, o Options) ([]File, []*Cost, error) {
	if r, ok := o.Builtins[p.Resource.Name]; ok {
		inputs.RetargetBuiltin(p, r)
	}
	var out []File
	var costs []*Cost
	var refused refusals
	var targets []error
	if o.Validate {
		vs, err := policy.Validating(p, model, policy.ValidatingOptions{Options: o.Binding, Actions: o.Actions})
		if err := refused.add(err); err != nil {
			return nil, nil, err
		}
		if len(vs) > 0 || err != nil { // written, or refused: needed either way
			targets = append(targets, targetError(policy.KindValidate, p.KubeVersion, o))
		}
		if out, costs, err = validatingFiles(p, model, vs); err != nil {
			return nil, nil, err
		}
	}
	if o.Normalize {
		ns, err := policy.Normalizing(p, o.Binding)
		if err := refused.add(err); err != nil {
			return nil, nil, err
		}
		if len(ns) > 0 || err != nil {
			targets = append(targets, targetError(policy.KindNormalize, p.KubeVersion, o))
		}
		for _, n := range ns {
			f, err := policyFile(p, n.Policy.Name, n.Policy, n.Binding)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, f)
		}
	}
	unservedKinds := errors.Join(targets...)
	if len(refused.Refusals) > 0 {
		if unservedKinds != nil {
			return nil, nil, errors.Join(&refused.Error, unserved{unservedKinds})
		}
		return nil, nil, &refused.Error
	}
	if unservedKinds != nil {
		return nil, nil, unservedKinds
	}
	return out, costs, nil
}

// unserved are the kinds of policy a CRD needs that its target does not
// serve (targetError), when the back end refused something too: both are
// reported, so that a user who mends one is not met by the other next.
type unserved struct{ error }

// validatingFiles renders the validating policies vs, and the cost of
// each.
func validatingFiles(p *plan.Plan, model *crd.CRD, vs []policy.ValidatingPolicy) ([]File, []*Cost, error) {
	var out []File
	var costs []*Cost
	for _, v := range vs {
		f, err := policyFile(p, v.Policy.Name, v.Policy, v.Binding)
		if err != nil {
			return nil, nil, err
		}
		cost, err := policyCost(v, model)
		if err != nil {
			return nil, nil, err
		}
		costs = append(costs, cost)
		out = append(out, f)
	}
	return out, costs, nil
}

// refusalDiags places each refusal at the schema node of its union.
func refusalDiags(c batch.InputCRD, d *manifest.Document, e *policy.Error, o Options) []batch.Diagnostic {
	model, _ := crd.Read(c.Value)
	var out []batch.Diagnostic
	for _, r := range e.Refusals {
		at := c.At
		at.Detail = r.Detail
		switch {
		case r.Kind == policy.KindNormalize && o.Validate:
			at.Detail += " (--normalize=false writes the validating policies alone)"
		case r.Kind == policy.KindValidate && o.Normalize:
			at.Detail += " (--validate=false writes the normalizing policies alone)"
		}
		if model == nil {
			at.RenderedPath = "version " + r.Version + " " + r.Node.String()
			out = append(out, at)
			continue
		}
		if path, ok := model.Node(crd.Location{Version: r.Version, Path: r.Node}); ok {
			at.Line, at.Path = d.Line(path), path
		} else {
			at.RenderedPath = "version " + r.Version + " " + r.Node.String()
		}
		out = append(out, at)
	}
	return out
}

// Duplicates reports each file given again after its first: one CRD
// given twice.
func Duplicates(files []File) []batch.Diagnostic {
	var diags []batch.Diagnostic
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.Name] {
			diags = append(diags, batch.Diagnostic{Detail: fmt.Sprintf("CustomResourceDefinition %s is given twice: its policy %s would be written twice", f.CRD, strings.TrimSuffix(f.Name, ".yaml"))})
		}
		seen[f.Name] = true
	}
	return diags
}

// NoUnions is the error of a run whose CRDs have no union to normalize:
// writing nothing would pass for a run that normalizes.
func NoUnions(paths []string, flags ...string) batch.Diagnostic {
	return batch.Diagnostic{Detail: fmt.Sprintf("no unions in %s: nothing to normalize; declare x-kubernetes-unions in the CRD schemas or in the mut2cel.io/declarations annotation, or give %s",
		batch.PathNames(paths), strings.Join(flags, " or "))}
}

// NothingDeclared is the error of a run asked for validating policies
// whose CRDs declare nothing that needs one: writing nothing would pass
// for a run that enforces.
func NothingDeclared(paths []string, flags ...string) batch.Diagnostic {
	return batch.Diagnostic{Detail: fmt.Sprintf("nothing in %s needs a policy: no declaration that a rule enforces; declare in the CRD schemas or in the mut2cel.io/declarations annotation, or give %s",
		batch.PathNames(paths), strings.Join(flags, " or "))}
}

// Kustomization lists the files as the resources of a kustomization.
func Kustomization(files []File) []byte {
	var b strings.Builder
	b.WriteString(Header)
	b.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:")
	if len(files) == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	for _, f := range files {
		b.WriteString("- " + f.Name + "\n")
	}
	return []byte(b.String())
}

// Stdout is what a run without a directory prints: every file, as YAML
// documents.
func Stdout(files []File) []byte {
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(f.Data)
	}
	return []byte(b.String())
}

// refusals gathers the refusals of every kind of policy of one CRD.
type refusals struct{ policy.Error }

// add keeps the refusals of err and returns any other error.
func (r *refusals) add(err error) error {
	var e *policy.Error
	if errors.As(err, &e) {
		r.Refusals = append(r.Refusals, e.Refusals...)
		return nil
	}
	return err
}

// policyFile renders a policy and its binding as the file of the policy named
// name.
func policyFile(p *plan.Plan, name string, objects ...interface{}) (File, error) {
	data, err := policy.Render(objects...)
	if err != nil {
		return File{}, err
	}
	return File{Name: name + ".yaml", CRD: p.Resource.Name, Data: append([]byte(Header), data...)}, nil
}
