package translate

import (
	"errors"

	"github.com/mut2cel/mut2cel/backend/crdrules"
	"github.com/mut2cel/mut2cel/edit"
	"github.com/mut2cel/mut2cel/plan"
)

// Compile compiles the declarations of one CRD document, from every front
// end, into its plan: the rules each version needs, where they run, what
// they stand for, and the bounds they need. Translate writes that plan
// into the CRD; other back ends read it alone. Problems are an *Error,
// as for Translate, which fails exactly when Compile does.
func Compile(doc map[string]interface{}, opts Options) (*plan.Plan, error) {
	c, err := compile(doc, opts)
	if err != nil {
		return nil, err
	}
	return c.plan, nil
}

// compilation is one compilation of a CRD document, with what writing it
// back into the document needs besides the plan.
type compilation struct {
	*compiled
	st *state
	// owned are the rules an earlier run generated, set aside before
	// compiling; base is the document without them, the annotations and
	// the inline declarations (Result.Base).
	owned *crdrules.Owned
	base  map[string]interface{}
}

// compile gathers the declarations of every front end (the schema, the
// declarations annotation, declarations files), sets aside the rules
// mut2cel owns, and compiles the declarations against what is left, so
// that a rule the user wrote is not generated again. Problems of every
// step are collected: a declaration that does not fit is left out and
// the others are still compiled, so that one run reports every problem.
func compile(doc map[string]interface{}, opts Options) (*compilation, error) {
	st, problems := readState(doc)
	if v := st.crd.APIVersion; v != "apiextensions.k8s.io/v1" {
		return nil, &Error{Problems: []Problem{newProblem(Unsupported, "%q: only apiextensions.k8s.io/v1 CRDs can be translated; convert the CRD to v1 first", v).At([]interface{}{"apiVersion"})}}
	}
	target, p, targetWarnings := resolveTarget(st, opts.Declarations, opts)
	problems = append(problems, p...)
	opts.KubeVersion = target
	opts.given, p = readGivenBounds(st, opts.Declarations)
	problems = append(problems, p...)
	decls, p := gather(st, opts.Declarations, true)
	problems = append(problems, p...)
	owned := crdrules.FindOwned(st.crd)
	warnings := append(lostRuleWarnings(owned.Lost), targetWarnings...)
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
	src, err := edit.Apply(doc, owned.SetAside())
	if err != nil {
		return nil, internalError(err)
	}
	base, err := edit.Apply(src, crdrules.InlineRemovals(st.crd, decls))
	if err != nil {
		return nil, internalError(err)
	}
	if opts.ForPolicies && opts.CompareFormatsAsValues {
		problems = append(problems, newProblem(Unsupported, "formatted strings cannot be compared as values in an admission policy, which sees the stored strings; compare them as strings").At(nil))
	}
	c, err := compileVersions(src, st, decls, len(problems) == 0, opts)
	var terr *Error
	switch {
	case errors.As(err, &terr):
		problems = append(problems, terr.Problems...)
	case err != nil:
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &Error{Problems: sortProblems(problems)}
	}
	c.warnings = append(warnings, c.warnings...)
	return &compilation{compiled: c, st: st, owned: owned, base: base}, nil
}
