package verify

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/verify/reference"
)

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
	v, _, err := r.compareKnown(old, new, nil)
	return v, err
}

// compareKnown is compare given so, the old object stored and validated
// by an earlier compare of a pair with the same old object, nil if none.
// It returns the old object stored and validated, for the next.
func (r *versionRun) compareKnown(old, new map[string]interface{}, so *oldStored) (verdicts, *oldStored, error) {
	if so == nil {
		var err error
		if so, err = r.storeOld(old); err != nil {
			return verdicts{}, nil, err
		}
	}
	storedOld, storedNew := so.read, r.storeNewOf(so, old, new)
	ref := r.validateOld(so)
	if ref == nil {
		ref = r.newRefusal(so, storedNew)
	}
	if ref != nil {
		// What the refused pair would have broken tells a constraint
		// that no valid update breaks from one never tried.
		_, _, broken := r.checker.CheckExercised(storedOld, storedNew)
		return verdicts{outcome: invalid, refusal: ref, broken: broken}, so, nil
	}
	if v, ok := r.agreeOnOwnRules(storedOld, storedNew); ok {
		return v, so, nil
	}
	intOld, intNew, floats := r.withIntegers(storedOld, storedNew)
	v, err := r.judgeStored(storedOld, storedNew, floats)
	if err != nil || v.outcome == agreed || v.outcome == invalid {
		return v, so, err
	}
	// Set apart only what the floats alone explain (docs/semantics.md
	// 2.4): the same pair with integers, judged the same way, agrees.
	if v.outcome == disagreed && floats {
		w, err := r.judgeStored(intOld, intNew, false)
		if err != nil {
			return verdicts{}, nil, err
		}
		if w.outcome == agreed {
			v.outcome = intAsFloat
		}
	}
	return v, so, nil
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
	if (len(errs) > 0) != (len(v.violations) > 0) || len(evaluationErrors(SortedMessages(errs))) > 0 {
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
