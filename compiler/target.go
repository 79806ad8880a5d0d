package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// The target travels with the output (docs/rewrite.md, "The target"): a
// declarations file may say the Kubernetes version its rules are for,
// and a translated CRD records the version its rules were made for, so
// that a later run makes the same rules without being told again. Which
// one counts, first to last:
//
//  1. Options.KubeVersion, given for the whole run;
//  2. the kubeVersion of the declarations file documents that name the
//     CRD (two that disagree are an error naming both);
//  3. the mut2cel.io/kube-version annotation of the CRD;
//  4. Options.FallbackKubeVersion, else plan.DefaultKubeVersion.
//
// A file that says another version than the annotation wins: the file is
// what the user declares, the annotation what an earlier run did. Where
// the one that counts overrides another that was said, a warning says so.

const annKubeVersion = decl.AnnotationKubeVersion

// givenTarget is a target version and where it was said.
type givenTarget struct {
	version plan.KubeVersion
	where   string // "the mut2cel.io/kube-version annotation", "d.yaml:3"
}

// resolveTarget decides the version the rules of the CRD of st are made
// for. Problems are errors; warnings say what was overridden.
func resolveTarget(st *state, sets []decl.Set, opts Options) (plan.KubeVersion, []Problem, []Problem) {
	recorded, problems := recordedTarget(st)
	declared, more := declaredTarget(st.name, sets)
	problems = append(problems, more...)
	var warnings []Problem
	overrides := func(chosen plan.KubeVersion, how string, said *givenTarget) {
		if said != nil && said.version != chosen {
			warnings = append(warnings, targetWarning(chosen, how, said))
		}
	}
	switch {
	case !opts.KubeVersion.IsZero():
		if declared != nil {
			overrides(opts.KubeVersion, "as the options of the run ask", declared)
		} else {
			overrides(opts.KubeVersion, "as the options of the run ask", recorded)
		}
		return opts.KubeVersion, problems, warnings
	case declared != nil:
		overrides(declared.version, "as "+declared.where+" says", recorded)
		return declared.version, problems, warnings
	case recorded != nil:
		return recorded.version, problems, warnings
	case !opts.FallbackKubeVersion.IsZero():
		return opts.FallbackKubeVersion, problems, warnings
	}
	return plan.DefaultKubeVersion, problems, warnings
}

// targetWarning says that the rules are made for chosen, not for the
// version said elsewhere.
func targetWarning(chosen plan.KubeVersion, how string, said *givenTarget) Problem {
	if said.where == annotationWhere {
		return annotationProblem(annKubeVersion, NewProblem("", "the rules are made for Kubernetes %s, %s, not for %s as an earlier run recorded here", chosen, how, said.version))
	}
	return NewProblem("", "the rules are made for Kubernetes %s, %s, not for %s as %s says", chosen, how, said.version, said.where)
}

const annotationWhere = "the " + annKubeVersion + " annotation"

// recordedTarget is the version of the mut2cel.io/kube-version
// annotation, as the model read it; nil when the CRD has none, or one
// that does not read (readState reports it).
func recordedTarget(st *state) (*givenTarget, []Problem) {
	own := st.crd.Own
	if own.KubeVersion == "" {
		return nil, nil
	}
	v, err := plan.ParseKubeVersion(own.KubeVersion)
	if err != nil {
		return nil, []Problem{annotationProblem(annKubeVersion, NewProblem(Invalid, "%v (mut2cel writes this annotation; delete it to make the rules for the version the run names)", err))}
	}
	return &givenTarget{v, annotationWhere}, nil
}

// declaredTarget reads the kubeVersion of the sets that name the CRD
// called name; nil when none says one.
func declaredTarget(name string, sets []decl.Set) (*givenTarget, []Problem) {
	var first *givenTarget
	var problems []Problem
	for _, s := range sets {
		if s.CRD != name || s.KubeVersion.Name == "" {
			continue
		}
		v, err := plan.ParseKubeVersion(s.KubeVersion.Name)
		if err != nil {
			problems = append(problems, inSource(NewProblem(Invalid, "kubeVersion: %v", err), s.KubeVersion.Source))
			continue
		}
		switch {
		case first == nil:
			first = &givenTarget{v, s.KubeVersion.Source.String()}
		case first.version != v:
			problems = append(problems, inSource(NewProblem(Invalid, "kubeVersion: %s, but %s says %s for CRD %s: keep one of the two", v, first.where, first.version, name), s.KubeVersion.Source))
		}
	}
	return first, problems
}

// Target is the Kubernetes version the output for c is made for with
// opts: what Compile plans for. Problems reading the version are an
// *Error.
func Target(c *crd.CRD, opts Options) (plan.KubeVersion, error) {
	st, _ := readState(c)
	v, problems, _ := resolveTarget(st, opts.Declarations, opts)
	if len(problems) > 0 {
		return v, &Error{Problems: SortProblems(problems)}
	}
	return v, nil
}
