package verify

import (
	"errors"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/pairgen"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// versionRun checks the pairs of one served version.
type versionRun struct {
	opts    Options
	crd     string
	version string
	checker *reference.Checker
	s       *schema.Structural
	objects *kube.ObjectValidator
	meta    resourceMeta
	judge   Judge
	gen     *pairgen.Generator
	rules   []*ruleRef // built on the first counterexample
	decls   []reference.Declaration
	causes  map[string]*CauseReport
	groups  map[string]*GroupReport
	// groupsShown counts the groups given a counterexample.
	groupsShown int
	counts      []*DeclarationReport // of decls, in the same order
	// constraints count, per constraint of decls, the judged pairs that
	// break it; setAside the refused pairs by Refusal.Reason.
	constraints  []*ConstraintReport
	byConstraint map[reference.Constraint]*ConstraintReport // the same, by constraint
	setAside     map[string]*SetAsideReport
	// companions are the declared CRD's own rules, nil when it has none.
	companions *companions
	// own are the rules of the CRD under test that are not companions
	// (sharedrules.go), evaluated alone on every pair; nil when the
	// judge is not the in-process validator, or the split is not exact,
	// and every pair is judged whole.
	own *kube.RuleValidator
}

func newVersionRun(doc map[string]interface{}, dv, tv *crd.Version, opts Options) (*versionRun, error) {
	if dv.Raw == nil || tv.Raw == nil {
		return nil, fmt.Errorf("%s: version %q has no openAPIV3Schema", tv.Field(), tv.Name)
	}
	checker, err := reference.NewChecker(dv.Raw)
	if err != nil {
		return nil, fmt.Errorf("%s: declarations of version %q: %w", dv.Field(), dv.Name, err)
	}
	if opts.CompareFormatsAsValues {
		checker.CompareFormatsAsValues()
	}
	s, err := tv.Structural()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tv.Field(), schemaErr(err))
	}
	props, _ := tv.Schema()
	objects, err := kube.NewObjectValidator(props)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tv.Field(), err)
	}
	comp, err := newCompanions(dv.Raw, dv.Field().String())
	if err != nil {
		return nil, err
	}
	judge, err := opts.NewJudge(Target{CRD: doc, Version: tv.Name, Schema: s})
	if err != nil {
		return nil, &JudgeError{Version: tv.Name, Err: err}
	}
	tested := readCRD(doc)
	r := &versionRun{
		opts: opts, crd: tested.Name, version: tv.Name, checker: checker, s: s,
		objects: objects, meta: resourceMetaOf(tested, tv.Name, s), judge: judge, gen: pairgen.NewDeclared(s, opts.Seed, checker),
		decls: checker.Declarations(), causes: map[string]*CauseReport{}, companions: comp,
		setAside: map[string]*SetAsideReport{}, groups: map[string]*GroupReport{},
	}
	r.byConstraint = map[reference.Constraint]*ConstraintReport{}
	for _, k := range checker.Constraints() {
		cr := &ConstraintReport{Constraint: k}
		r.constraints = append(r.constraints, cr)
		r.byConstraint[k] = cr
	}
	if _, inProcess := judge.(*celJudge); inProcess && comp != nil {
		if own, ok := ownRules(comp.s, s); ok {
			r.own = kube.NewRuleValidator(own)
		}
	}
	return r, nil
}

func (r *versionRun) run() (*VersionReport, error) {
	rep := &VersionReport{Version: r.version}
	for _, d := range r.decls {
		r.counts = append(r.counts, &DeclarationReport{Declaration: d})
	}
	rep.Declarations = r.counts
	rep.Constraints = r.constraints
	for start := 1; start <= r.opts.Pairs; start += batchSize {
		b := r.judgeBatch(min(batchSize, r.opts.Pairs-start+1))
		for k := range b.old {
			i := start + k
			if b.errs[k] != nil {
				return nil, b.errs[k]
			}
			rep.Pairs++
			if err := r.record(rep, i, b.old[k], b.new[k], b.verdicts[k]); err != nil {
				return nil, err
			}
			if r.opts.Progress != nil && (i%ProgressEvery == 0 || i == r.opts.Pairs) {
				r.opts.Progress(Progress{Version: r.version, Done: i, Total: r.opts.Pairs, Disagreements: rep.Disagreements})
			}
		}
	}
	return rep, nil
}

// batchSize is how many pairs are generated, then judged in parallel, at a
// time; results are recorded in generation order, so the report does not
// depend on the number of workers.
const batchSize = 256

type pairBatch struct {
	old, new []map[string]interface{}
	verdicts []verdicts
	errs     []error
}

func (r *versionRun) judgeBatch(n int) *pairBatch {
	b := &pairBatch{old: make([]map[string]interface{}, n), new: make([]map[string]interface{}, n), verdicts: make([]verdicts, n), errs: make([]error, n)}
	for k := 0; k < n; k++ {
		b.old[k], b.new[k] = r.gen.Next()
	}
	all := make([]int, n)
	for k := range all {
		all[k] = k
	}
	r.compareAll(b, all)
	// Mend the pairs the apiserver refuses, in order, so that the
	// report does not depend on the number of workers.
	for round := 0; round < pairgen.RepairRounds; round++ {
		var again []int
		mends := map[int]pairgen.Mend{}
		for k := range b.old {
			if v := b.verdicts[k]; b.errs[k] == nil && v.outcome == invalid && v.refusal != nil && v.refusal.Object != "" {
				m := r.gen.Repair(b.old[k], b.new[k], v.refusal.Object, v.refusal.field, round)
				b.old[k], b.new[k], mends[k] = m.Old, m.New, m
				again = append(again, k)
			}
		}
		if len(again) == 0 {
			break
		}
		r.compareAll(b, again)
		for _, k := range again {
			if b.verdicts[k].outcome != invalid {
				r.gen.Passed(mends[k])
			}
		}
	}
	return b
}

// compareAll judges the pairs of b at indices ks, with the run's workers.
func (r *versionRun) compareAll(b *pairBatch, ks []int) {
	workers := max(1, min(r.opts.Workers, len(ks)))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(ks); i += workers {
				k := ks[i]
				b.verdicts[k], b.errs[k] = r.compare(b.old[k], b.new[k])
			}
		}(w)
	}
	wg.Wait()
	for _, k := range ks {
		if v := b.verdicts[k]; b.errs[k] == nil && v.outcome == invalid {
			r.countRefused(v.broken)
			if v.refusal != nil {
				r.gen.Hint(v.refusal.field, v.refusal.Message)
			}
		}
	}
}

// countRefused adds a refused pair to the constraints it would have
// broken.
func (r *versionRun) countRefused(broken []reference.Constraint) {
	for _, k := range broken {
		if cr := r.byConstraint[k]; cr != nil {
			cr.Refused++
		}
	}
}

func (r *versionRun) record(rep *VersionReport, i int, old, new map[string]interface{}, v verdicts) error {
	switch v.outcome {
	case agreed:
		r.countDeclarations(v, nil)
		r.countConstraints(v)
	case intAsFloat:
		rep.IntAsFloat++
		if rep.IntAsFloatExample == nil {
			rep.IntAsFloatExample = &Example{Pair: i, Old: old, New: new}
		}
		r.countDeclarations(v, nil)
	case invalid:
		rep.Invalid++
		r.recordSetAside(rep, i, old, new, v.refusal)
	case disagreed, evalFailed:
		r.countConstraints(v)
		rep.Disagreements++
		if rep.First == 0 {
			rep.First = i
		}
		return r.recordCause(rep, i, old, new, v)
	}
	return nil
}

// recordSetAside counts a refused pair under its reason, keeping the
// first pair of each reason as its example.
func (r *versionRun) recordSetAside(rep *VersionReport, i int, old, new map[string]interface{}, ref *Refusal) {
	if ref == nil {
		ref = &Refusal{Reason: "refused by the judge"}
	}
	if ref.field != "" {
		r.gen.Refused(ref.field)
	}
	if sa, ok := r.setAside[ref.Reason]; ok {
		sa.Pairs++
		return
	}
	sa := &SetAsideReport{Refusal: *ref, Pairs: 1, Example: Example{Pair: i, Old: old, New: new}}
	r.setAside[ref.Reason] = sa
	rep.SetAside = append(rep.SetAside, sa)
}

// countConstraints adds a judged pair to the constraints it breaks: on
// it, the rules under test must deny. A rule of the declared CRD that
// denies it too does not make it count less: whichever rule denies, the
// CRD under test must, and a CRD under test that lets it through
// disagrees with the reference all the same.
func (r *versionRun) countConstraints(v verdicts) {
	if len(v.broken) == 0 {
		return
	}
	for _, k := range v.broken {
		if cr := r.byConstraint[k]; cr != nil {
			cr.Violating++
		}
	}
	for _, dr := range r.counts {
		for _, k := range v.broken {
			if k.Declaration == dr.Declaration {
				dr.Violating++
				break
			}
		}
	}
}

// recordCause counts a disagreement under its cause and its groups. The
// first pair of each of the first Options.Counterexamples causes, and of
// each of the first as many groups, is shrunk once and shown by both.
func (r *versionRun) recordCause(rep *VersionReport, i int, old, new map[string]interface{}, v verdicts) error {
	cause := r.cause(old, new, v)
	r.countDeclarations(v, &cause)
	key := cause.Key()
	c, seen := r.causes[key]
	if seen {
		c.Disagreements++
	} else {
		c = &CauseReport{Cause: cause, Disagreements: 1, First: i}
		r.causes[key] = c
		rep.Causes = append(rep.Causes, c)
	}
	var fresh []*GroupReport
	for _, g := range groupsOf(cause, v.broken) {
		gk := g.Key()
		if known, ok := r.groups[gk]; ok {
			known.Disagreements++
			continue
		}
		g.Disagreements, g.First = 1, i
		r.groups[gk] = g
		rep.Groups = append(rep.Groups, g)
		fresh = append(fresh, g)
	}
	causeShown := !seen && len(rep.Counterexamples) < r.opts.Counterexamples
	var groupsShown []*GroupReport
	for _, g := range fresh {
		if r.groupsShown < r.opts.Counterexamples {
			r.groupsShown++
			groupsShown = append(groupsShown, g)
		}
	}
	if !causeShown && len(groupsShown) == 0 {
		return nil
	}
	ce, err := r.counterexample(i, old, new, v, key)
	if err != nil {
		return err
	}
	if causeShown {
		c.Counterexample = ce
		rep.Counterexamples = append(rep.Counterexamples, ce)
	}
	for _, g := range groupsShown {
		g.Counterexample = ce
	}
	return nil
}

// cause attributes the disagreement of a raw pair judged v.
func (r *versionRun) cause(old, new map[string]interface{}, v verdicts) Cause {
	return causeOf(v, r.decls, func() []InvolvedRule { return r.denyingRules(old, new) },
		func() []InvolvedRule { return r.denyingCompanions(old, new) })
}

// countDeclarations adds a judged pair to the declarations it exercised
// and, when it is a disagreement of the given cause, to those the
// disagreement involves (see DeclarationReport).
func (r *versionRun) countDeclarations(v verdicts, cause *Cause) {
	exercised := map[reference.Declaration]bool{}
	for _, d := range v.exercised {
		exercised[d] = true
	}
	violated := map[reference.Declaration]bool{}
	if cause != nil {
		for _, viol := range v.violations {
			violated[reference.DeclarationOf(viol, r.decls)] = true
		}
	}
	for _, dr := range r.counts {
		if exercised[dr.Declaration] {
			dr.Pairs++
		}
		if cause == nil {
			continue
		}
		if violated[dr.Declaration] {
			dr.Violated++
		}
		if exercised[dr.Declaration] || violated[dr.Declaration] || ruleOnLine(cause.Rules, dr.Path) {
			dr.Disagreements++
		}
	}
}

// ruleOnLine reports whether one of rules sits at the schema path, above
// it or below it.
func ruleOnLine(rules []InvolvedRule, path string) bool {
	for _, rr := range rules {
		if schemapath.OnSchemaLine(rr.Path, path) {
			return true
		}
	}
	return false
}

// outcome is what became of one pair.
type outcome int

const (
	agreed     outcome = iota
	disagreed          // the verdicts differ
	evalFailed         // a rule failed to evaluate
	intAsFloat         // the verdicts differ, and agree with integers for floats
	invalid            // not a pair the apiserver would judge by its rules
)

// verdicts are both sides' decisions on one stored pair.
type verdicts struct {
	outcome    outcome
	violations []reference.Violation
	denied     bool
	detail     []string
	evalErrs   []string
	exercised  []reference.Declaration // by the update, as the reference checker saw it
	broken     []reference.Constraint  // by the update, as the reference checker saw it
	// refusal says why an invalid pair is set aside.
	refusal *Refusal
	// companions are the messages of the declared CRD's own rules that
	// deny the pair: the reference denies it too.
	companions []string
}

// refDenied is the reference verdict: the declarations or the declared
// CRD's own rules deny the update.
func (v verdicts) refDenied() bool {
	return len(v.violations) > 0 || len(v.companions) > 0
}

// compare runs a raw pair through the storage pipeline and both deciders.
// The raw objects are not changed.
func (r *versionRun) compare(old, new map[string]interface{}) (verdicts, error) {
	storedOld, storedNew, err := r.storedPair(old, new)
	if err != nil {
		return verdicts{}, err
	}
	if ref := r.refusal(storedOld, storedNew); ref != nil {
		// What the refused pair would have broken tells a constraint
		// that no valid update breaks from one never tried.
		_, _, broken := r.checker.CheckExercised(storedOld, storedNew)
		return verdicts{outcome: invalid, refusal: ref, broken: broken}, nil
	}
	if v, ok := r.agreeOnOwnRules(storedOld, storedNew); ok {
		return v, nil
	}
	intOld, intNew, floats := r.withIntegers(storedOld, storedNew)
	v, err := r.judgeStored(storedOld, storedNew, floats)
	if err != nil || v.outcome == agreed || v.outcome == invalid {
		return v, err
	}
	// Set apart only what the floats alone explain (docs/semantics.md
	// 2.4): the same pair with integers, judged the same way, agrees.
	if v.outcome == disagreed && floats {
		w, err := r.judgeStored(intOld, intNew, false)
		if err != nil {
			return verdicts{}, err
		}
		if w.outcome == agreed {
			v.outcome = intAsFloat
		}
	}
	return v, nil
}

// judgeStored decides a stored pair on both sides. floats says the pair
// holds an integer sent as a float, whose evaluation errors then deny the
// update like a rule returning false.
func (r *versionRun) judgeStored(storedOld, storedNew map[string]interface{}, floats bool) (verdicts, error) {
	var v verdicts
	v.violations, v.exercised, v.broken = r.checker.CheckExercised(storedOld, storedNew)
	v.companions = r.companions.judge(storedOld, storedNew)
	var err error
	v.denied, v.detail, err = r.judge.Update(storedOld, storedNew)
	if errors.Is(err, ErrInvalidPair) {
		return verdicts{outcome: invalid, refusal: &Refusal{Reason: "refused by the server", Message: err.Error()}}, nil
	}
	if err != nil {
		return verdicts{}, &JudgeError{Version: r.version, Err: err}
	}
	v.evalErrs = unexplainedByCompanions(evaluationErrors(v.detail), v.companions)
	unexplained := v.evalErrs
	if floats {
		// Which of a failure and a false a rule gives can depend on the
		// order in which the apiserver's CEL compares object fields, so
		// only the verdict is compared.
		unexplained = unexplainedByFloats(unexplained)
	}
	if r.checker.ComparesAnyAsValues() {
		// Under the opt-in a rule that reads a formatted string CEL
		// cannot read fails, and so denies (semantics.md 8): the
		// checker predicts the denial, and only verdicts are compared.
		unexplained = unexplainedByUnreadable(unexplained)
	}
	switch {
	case len(unexplained) > 0:
		v.outcome = evalFailed
	case v.denied != v.refDenied():
		v.outcome = disagreed
	}
	return v, nil
}

// agreeOnOwnRules judges a stored pair by the rules of the CRD under test
// that are not companions, against the checker alone: when they agree,
// without an evaluation error, the whole verdicts agree too
// (sharedrules.go). ok is false when the pair must be judged whole.
// Only the fields an agreeing pair is recorded by are set.
func (r *versionRun) agreeOnOwnRules(storedOld, storedNew map[string]interface{}) (v verdicts, ok bool) {
	if r.own == nil {
		return v, false
	}
	v.violations, v.exercised, v.broken = r.checker.CheckExercised(storedOld, storedNew)
	errs := r.own.Validate(storedNew, storedOld)
	if (len(errs) > 0) != (len(v.violations) > 0) || len(evaluationErrors(sortedErrors(errs))) > 0 {
		return v, false
	}
	return v, true
}

// withIntegers returns the stored pair with its integers sent as floats
// sent as integers, and whether it had any.
func (r *versionRun) withIntegers(storedOld, storedNew map[string]interface{}) (map[string]interface{}, map[string]interface{}, bool) {
	o, inOld := withIntegers(r.s, storedOld)
	n, inNew := withIntegers(r.s, storedNew)
	return o.(map[string]interface{}), n.(map[string]interface{}), inOld || inNew
}

// refusal says why the apiserver refuses a stored pair whatever its
// transition rules say, nil when it accepts both objects on create: only
// then is the old one a possible stored object and the new one refused, if
// at all, by transition rules alone.
func (r *versionRun) refusal(storedOld, storedNew map[string]interface{}) *Refusal {
	if errs := r.objects.Validate(storedOld); len(errs) > 0 {
		return refusalOf("old", firstError(errs))
	}
	if errs := r.objects.Validate(storedNew); len(errs) > 0 {
		return refusalOf("new", firstError(errs))
	}
	return nil
}

// firstError is the error that comes first in the order of their
// messages: the validators list errors in Go map order, and the run must
// not depend on it.
func firstError(errs field.ErrorList) *field.Error {
	first := errs[0]
	for _, e := range errs[1:] {
		if e.Error() < first.Error() {
			first = e
		}
	}
	return first
}

// sameDisagreement reports whether a shrunk pair still fails the same way.
func sameDisagreement(a, b verdicts) bool {
	return a.outcome == b.outcome && a.denied == b.denied && (len(a.violations) > 0) == (len(b.violations) > 0) &&
		(len(a.companions) > 0) == (len(b.companions) > 0)
}

// denyingCompanions lists the declared CRD's own rules that, each alone,
// deny the raw pair once stored.
func (r *versionRun) denyingCompanions(old, new map[string]interface{}) []InvolvedRule {
	storedOld, storedNew, err := r.storedPair(old, new)
	if err != nil {
		return nil
	}
	return r.companions.denying(storedOld, storedNew)
}

// storedPair returns copies of a raw pair as the apiserver sees it: the
// old object as it reads it back from storage, through the storage
// pipeline, then written as JSON and read back, and the new one as it
// arrives, through the pipeline. Where the round trip cannot change the
// old object (jsonStable), it is skipped: on a large schema it costs a
// sixth of a pair. The new object is stored from the old one's stored form
// (storeNew), before the round trip, which would turn the floats storeNew
// copies from it into integers. Both then get the resource's apiVersion,
// kind and metadata (resourceMeta), as every object the apiserver
// validates has them.
func (r *versionRun) storedPair(old, new map[string]interface{}) (storedOld, storedNew map[string]interface{}, err error) {
	storedOld = kube.Store(r.s, jsonvalue.CopyMap(old))
	storedNew = storeNew(r.s, old, storedOld, new)
	if !jsonStable(storedOld) {
		if storedOld, err = kube.RoundTrip(storedOld); err != nil {
			return nil, nil, err
		}
	}
	r.meta.set(storedOld)
	r.meta.set(storedNew)
	return storedOld, storedNew, nil
}
