package verify

import (
	"fmt"
	"slices"

	"github.com/mut2cel/mut2cel/verify/reference"
)

// DefaultPairs is the number of pairs checked per version when
// Options.Pairs is zero.
const DefaultPairs = 10000

// Options control a verification run.
type Options struct {
	// Pairs is the number of updates checked per served version.
	Pairs int
	// Seed makes runs repeatable: the same CRDs and seed check the same
	// pairs.
	Seed int64
	// Counterexamples is how many causes of disagreement, and how many
	// groups (GroupReport), per version are shown by a shrunk
	// counterexample, the first pair of each (disagreements are all
	// counted, by cause and by group); zero means 3, below zero none.
	Counterexamples int
	// KubeMinor, when set, also requires every rule of the CRD under test to
	// compile in the CEL environment Kubernetes 1.KubeMinor uses for new
	// CRD rules.
	KubeMinor int
	// NewJudge builds the judge of one version. Nil means the apiserver's
	// CEL validator in process. The objects a judge receives are in stored
	// form: the old one as storage returns it, the new one after pruning,
	// null dropping and defaulting; a new object may hold an integral
	// float64 where the schema says integer (a client sent 1.0), which a
	// judge that talks to a server must send as 1.0, not 1.
	NewJudge func(Target) (Judge, error)
	// Progress, when set, is called every ProgressEvery pairs and when a
	// version is done.
	Progress func(Progress)
	// Workers is how many pairs are judged at once; zero means one. More
	// than one needs a Judge that is safe for concurrent use, as the
	// in-process one is. The report does not depend on it.
	Workers int
	// CompareFormatsAsValues makes every declaration compare strings of
	// format date-time, duration and byte as values, as the run-wide
	// option of translate does (semantics.md 8); the modifier
	// x-mut2cel-formats does it for the declarations beside it.
	CompareFormatsAsValues bool
	// StopAtDisagreement ends each version's run with the batch of pairs
	// in which it finds its first disagreement: the pairs judged are the
	// first ones of the full run, the same pairs, and the report counts
	// only them. For a check that needs to know whether the rules are
	// found out, not how often (a rule removed on purpose).
	StopAtDisagreement bool
	// Versions, when set, are the only served versions checked; the
	// report holds no other, and a version it names that the CRD under
	// test does not serve is an error. The rules of a version are judged apart from
	// the others', so a check of one version needs no other.
	Versions []string
}

// GCPercent is the garbage collector's target (GOGC) that the mut2cel
// command runs Verify with unless the user set GOGC. The apiserver's CEL
// evaluation allocates a little garbage on every field access (it builds
// the map of an object's property schemas anew for each lookup) while the
// live heap stays small, so collecting less often about halves the time
// per pair for a few tens of MB. The benchmarks run at it too, to measure
// what the command does.
const GCPercent = 400

// ProgressEvery is how often, in pairs, Options.Progress is called.
const ProgressEvery = 500

// Progress is the state of a run, for progress reports.
type Progress struct {
	Version       string
	Done, Total   int
	Disagreements int
}

// Verify checks the CRD document translated against the declarations of
// the CRD document declared: for every version translated serves, it
// generates updates, runs both objects through the apiserver's storage
// pipeline, and compares the reference checker's verdict on the
// declarations of the version of the same name in declared, composed with
// that version's own rules (an update is allowed when both allow it), with
// the verdict of translated's rules. It returns an error when either document
// is unusable (no such version, invalid declarations, a translated CRD the
// apiserver would refuse), or a *JudgeError when the judge fails;
// disagreements are in the Report.
func Verify(declared, translated map[string]interface{}, opts Options) (*Report, error) {
	if opts.Pairs <= 0 {
		opts.Pairs = DefaultPairs
	}
	switch {
	case opts.Counterexamples == 0:
		opts.Counterexamples = 3
	case opts.Counterexamples < 0:
		opts.Counterexamples = 0
	}
	if opts.NewJudge == nil {
		opts.NewJudge = newCELJudge
	}
	typed, err := typedCRD(translated)
	if err != nil {
		return nil, fmt.Errorf("reading the CRD under test: %w", err)
	}
	tested := readCRD(translated)
	if err := checkTranslated(typed, tested, opts.KubeMinor); err != nil {
		return nil, err
	}
	if _, err := typedCRD(declared); err != nil {
		return nil, fmt.Errorf("reading the declared CRD: %w", err)
	}
	report := &Report{CRD: tested.Name}
	declaredVersions := crdVersions(declared)
	for _, tv := range tested.Versions {
		if !tv.Served || (opts.Versions != nil && !slices.Contains(opts.Versions, tv.Name)) {
			continue
		}
		dv, ok := findVersion(declaredVersions, tv.Name)
		if !ok {
			return nil, fmt.Errorf("%s: version %q is served by the CRD under test but not declared", tv.Field(), tv.Name)
		}
		r, err := newVersionRun(translated, dv, tv, opts)
		if err != nil {
			return nil, err
		}
		vr, err := r.run()
		if err != nil {
			return nil, err
		}
		report.Versions = append(report.Versions, vr)
	}
	if len(report.Versions) < len(opts.Versions) {
		// A version asked for and not served would pass unchecked.
		return nil, fmt.Errorf("Versions %v: the CRD under test serves %d of them", opts.Versions, len(report.Versions))
	}
	return report, nil
}

// Report is the outcome of Verify for one CRD.
type Report struct {
	CRD      string
	Versions []*VersionReport
}

// Failed reports whether any version fails (VersionReport.Failed).
func (r *Report) Failed() bool {
	for _, v := range r.Versions {
		if v.Failed() {
			return true
		}
	}
	return false
}

// Failed reports whether the version has a disagreement, or the run did
// not look at all it claims to: a declaration that no judged pair
// exercised, a constraint that no judged pair broke (Untested), or more
// pairs set aside than MaxSetAside allows. The rules of such a
// declaration or constraint went unchecked, so the run vouches for
// nothing about them.
func (v *VersionReport) Failed() bool {
	return v.Disagreements > 0 || len(v.Unexercised()) > 0 || len(v.Untested()) > 0 || v.TooManySetAside()
}

// MaxSetAside is the share of a version's pairs that may be set aside
// (VersionReport.Invalid) before the run fails: the generator builds
// objects the schema accepts, so a larger share means it misreads the
// schema, and what it set aside went unchecked.
const MaxSetAside = 0.05

// TooManySetAside reports whether more than MaxSetAside of the pairs were
// set aside.
func (v *VersionReport) TooManySetAside() bool {
	return v.Pairs > 0 && float64(v.Invalid) > MaxSetAside*float64(v.Pairs)
}

// Judged is the number of pairs judged by both sides: those not set aside.
func (v *VersionReport) Judged() int {
	return v.Pairs - v.Invalid
}

// Untested lists, in the order of Constraints, the constraints that no
// judged pair broke and that are not Unreachable.
func (v *VersionReport) Untested() []reference.Constraint {
	var out []reference.Constraint
	for _, c := range v.Constraints {
		if c.Violating == 0 && !c.Unreachable() {
			out = append(out, c.Constraint)
		}
	}
	return out
}

// Unreachable lists the constraints that only refused pairs broke
// (ConstraintReport.Unreachable).
func (v *VersionReport) Unreachable() []*ConstraintReport {
	var out []*ConstraintReport
	for _, c := range v.Constraints {
		if c.Unreachable() {
			out = append(out, c)
		}
	}
	return out
}

// VersionReport counts the pairs of one version by outcome.
type VersionReport struct {
	Version string
	Pairs   int
	// Disagreements counts pairs on which the verdicts differ, or a rule of
	// the CRD under test failed to evaluate for another reason than an
	// integer sent as a float. A rule that fails on such an integer denies
	// the update, as the apiserver does.
	Disagreements int
	// First is the number (from 1) of the first disagreeing pair, 0 if none.
	First int
	// IntAsFloat counts pairs whose verdicts differ only because an
	// integer was sent as a float: the same pair with every such float
	// replaced by its integer, judged again, agrees. The apiserver's CEL
	// does not treat 1.0 as the integer 1 (docs/semantics.md 2.4), so these
	// are set apart, not failures; a pair that still disagrees with
	// integers is a disagreement.
	IntAsFloat int
	// IntAsFloatExample is the first such pair, as generated.
	IntAsFloatExample *Example
	// Invalid counts the pairs set aside because the apiserver refuses
	// an object of the pair whatever the rules (it fails the schema, the
	// list types or a rule on create), or a judge refuses the pair with
	// ErrInvalidPair. Such a pair is judged by neither side and counts
	// for nothing else; a well-aimed generator keeps this near zero.
	Invalid int
	// SetAside count the pairs set aside by reason, in order of first
	// occurrence.
	SetAside []*SetAsideReport
	// Counterexamples are the first pairs of the first causes, shrunk.
	Counterexamples []*Counterexample
	// Causes count the disagreements by cause, in order of first
	// occurrence.
	Causes []*CauseReport
	// Groups count the disagreements by the constraint the rules let
	// through or the rule at fault, in order of first occurrence.
	Groups []*GroupReport
	// Declarations count the pairs by declaration they exercised, in
	// schema walk order.
	Declarations []*DeclarationReport
	// Constraints count, for every constraint of the declarations, the
	// judged pairs that break it (countConstraints), in the order of
	// Declarations.
	Constraints []*ConstraintReport
}

// ConstraintReport counts the judged pairs that break one constraint:
// the pairs on which the CRD under test is tested to deny it; and the
// generated pairs that would have broken it but that the apiserver
// refused, on create of the old object or on the update itself.
type ConstraintReport struct {
	reference.Constraint
	Violating, Refused int
}

// MinRefused is how many refused pairs, and no judged one, must have
// broken a constraint for verify to call it out of reach of valid
// updates (Unreachable) rather than untested.
const MinRefused = 20

// Unreachable reports whether every pair that broke the constraint, and
// there were at least MinRefused, was refused by the apiserver: a rule
// on create, say, that requires two properties together keeps either
// from being removed alone. The apiserver itself then refuses such
// updates; no rule under test is needed for them.
func (c *ConstraintReport) Unreachable() bool {
	return c.Violating == 0 && c.Refused >= MinRefused
}

// SetAsideReport counts the pairs set aside for one reason.
type SetAsideReport struct {
	Refusal
	Pairs int
	// Example is the first such pair.
	Example Example
}

// Example is one generated pair, as a client sends it.
type Example struct {
	Pair     int
	Old, New map[string]interface{}
}

// Unexercised lists, in schema walk order, the declarations that no pair
// of the version exercised, except those whose every constraint is out
// of reach (ConstraintReport.Unreachable): no update the apiserver
// accepts can reach them. The generator aims at every declared node in
// turn, so one is listed when no update the schema allows reaches it (an
// item of a list bounded to no items, say) or when there were too few
// pairs for one round of aims.
func (v *VersionReport) Unexercised() []reference.Declaration {
	var out []reference.Declaration
	for _, d := range v.Declarations {
		if d.Pairs == 0 && !v.outOfReach(d.Declaration) {
			out = append(out, d.Declaration)
		}
	}
	return out
}

// outOfReach reports whether d has constraints and all of them are out
// of reach.
func (v *VersionReport) outOfReach(d reference.Declaration) bool {
	n := 0
	for _, c := range v.Constraints {
		if c.Declaration != d {
			continue
		}
		if !c.Unreachable() {
			return false
		}
		n++
	}
	return n > 0
}
