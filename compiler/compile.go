package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// Options select what Compile plans.
type Options struct {
	// KubeVersion is the oldest Kubernetes minor version the output must
	// work on. Zero lets the CRD's declarations say it: the kubeVersion
	// of a declarations file, else the version recorded by an earlier
	// run, else FallbackKubeVersion (target.go).
	KubeVersion plan.KubeVersion
	// FallbackKubeVersion is the target of a CRD whose declarations say
	// none, when KubeVersion is zero. Zero means plan.DefaultKubeVersion.
	FallbackKubeVersion plan.KubeVersion
	// AllServedVersions applies the declarations of each served version to
	// every other served version whose schema has the declared path, and
	// keeps the copies among the plan's declarations. Without it, served
	// versions that store the same objects (no conversion webhook) must
	// declare the same on every path they share (docs/translation.md,
	// "Several versions").
	AllServedVersions bool
	// Declarations are declarations kept outside the CRD (declarations
	// files, decl.ParseFile). The sets whose crd is the CRD's name are
	// added to its declarations.
	Declarations []decl.Set
	// CompareFormatsAsValues makes every declaration compare strings of
	// format date-time, duration and byte as the apiserver's CEL reads
	// them, as the modifier x-mut2cel-formats: CompareAsValues does for
	// the declarations beside it (docs/semantics.md 8).
	CompareFormatsAsValues bool
}

// Result is the compilation of one CRD.
type Result struct {
	// Plan holds the checks of every declaration that compiled; where
	// Problems is not empty, the others are left out.
	Plan *plan.Plan
	// Problems are every reason a declaration, or the CRD, cannot be
	// compiled, in the order found: a back end may add its own for the
	// same run before they are reported together.
	Problems []Problem
	// Warnings are things the compiler did that the user should know.
	Warnings []Problem
}

// Compile compiles the declarations of the CRD c, from every front end
// (its schemas, its mut2cel.io/declarations annotation, opts.Declarations),
// into its plan: the checks each version needs, where they run and what
// they stand for. Problems of every step are collected: a declaration
// that does not fit is left out and the others are still compiled, so
// that one run reports every problem.
func Compile(c *crd.CRD, opts Options) *Result {
	st, problems := readState(c)
	if v := st.crd.APIVersion; v != "apiextensions.k8s.io/v1" {
		return &Result{Problems: []Problem{NewProblem(Unsupported, "%q: only apiextensions.k8s.io/v1 CRDs can be translated; convert the CRD to v1 first", v).At([]interface{}{"apiVersion"})}}
	}
	target, p, warnings := resolveTarget(st, opts.Declarations, opts)
	problems = append(problems, p...)
	opts.KubeVersion = target
	given, p := readGivenBounds(st, opts.Declarations)
	problems = append(problems, p...)
	decls, p := gather(st, opts.Declarations, true)
	problems = append(problems, p...)
	sp := spreadDeclarations(st, decls, opts)
	for _, d := range sp.copies {
		if p, ok := placed(st, d); !ok {
			problems = append(problems, p)
			continue
		}
		decls = append(decls, d)
	}
	problems = append(problems, sp.problems...)
	warnings = append(warnings, sp.warnings...)
	pl := &plan.Plan{KubeVersion: target, RecordKubeVersion: target != plan.DefaultKubeVersion, Resource: plan.Resource{
		Name: c.Name, Group: c.Group, Kind: c.Kind, Plural: c.Plural, Scope: c.Scope}}
	for _, v := range c.Versions {
		pv, p := compileVersion(v, st, decls, given, opts)
		problems = append(problems, p...)
		if pv != nil {
			pl.Versions = append(pl.Versions, *pv)
		}
	}
	return &Result{Plan: pl, Problems: problems, Warnings: warnings}
}

// Declarations returns the declarations of c from every front end, as
// Compile reads them, with the copies of opts.AllServedVersions: the
// CRD as declared, for a reader that checks it apart from the compiler.
// Nothing is compiled, so a declaration no rule can express is returned
// as it is; only declarations that name a version or node the CRD
// lacks, or that contradict each other, are problems.
func Declarations(c *crd.CRD, opts Options) ([]decl.Declaration, []Problem) {
	st, problems := readState(c)
	if st.crd.APIVersion != "apiextensions.k8s.io/v1" {
		return nil, nil
	}
	decls, p := gather(st, opts.Declarations, false)
	problems = append(problems, p...)
	if opts.AllServedVersions {
		decls = append(decls, spreadDeclarations(st, decls, opts).copies...)
	}
	return decls, problems
}
