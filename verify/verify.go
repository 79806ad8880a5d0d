package verify

import (
	"fmt"
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
	// Counterexamples is how many causes of disagreement per version are
	// shown by a shrunk counterexample, the first pair of each cause
	// (disagreements are all counted, by cause); zero means 3.
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
	if opts.Counterexamples <= 0 {
		opts.Counterexamples = 3
	}
	if opts.NewJudge == nil {
		opts.NewJudge = newCELJudge
	}
	crd, err := typedCRD(translated)
	if err != nil {
		return nil, fmt.Errorf("reading the CRD under test: %w", err)
	}
	if err := checkTranslated(crd, opts.KubeMinor); err != nil {
		return nil, err
	}
	if _, err := typedCRD(declared); err != nil {
		return nil, fmt.Errorf("reading the declared CRD: %w", err)
	}
	report := &Report{CRD: CRDName(translated)}
	declaredVersions := crdVersions(declared)
	for _, tv := range crdVersions(translated) {
		if !tv.served {
			continue
		}
		dv, ok := findVersion(declaredVersions, tv.name)
		if !ok {
			return nil, fmt.Errorf("%s: version %q is served by the CRD under test but not declared", tv.path(), tv.name)
		}
		r, err := newVersionRun(translated, crd.Spec.Versions[tv.index].Schema, dv, tv, opts)
		if err != nil {
			return nil, err
		}
		vr, err := r.run()
		if err != nil {
			return nil, err
		}
		report.Versions = append(report.Versions, vr)
	}
	return report, nil
}

// Report is the outcome of Verify for one CRD.
type Report struct {
	CRD      string
	Versions []*VersionReport
}

// Failed reports whether any version has a disagreement or a declaration
// that no pair exercised: the rules of such a declaration went unchecked,
// so the run vouches for nothing about them.
func (r *Report) Failed() bool {
	for _, v := range r.Versions {
		if v.Disagreements > 0 || len(v.Unexercised()) > 0 {
			return true
		}
	}
	return false
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
	// Invalid counts disagreeing pairs dropped because one object is not
	// valid for the schema (the apiserver refuses it before any rule
	// matters), and every pair a judge refuses with ErrInvalidPair; a
	// well-aimed generator keeps this near zero.
	Invalid int
	// Counterexamples are the first pairs of the first causes, shrunk.
	Counterexamples []*Counterexample
	// Causes count the disagreements by cause, in order of first
	// occurrence.
	Causes []*CauseReport
	// Declarations count the pairs by declaration they exercised, in
	// schema walk order.
	Declarations []*DeclarationReport
}

// Unexercised lists, in schema walk order, the declarations that no pair
// of the version exercised. The generator aims at every declared node in
// turn, so one is listed when no update the schema allows reaches it (an
// item of a list bounded to no items, say) or when there were too few
// pairs for one round of aims.
func (v *VersionReport) Unexercised() []Declaration {
	var out []Declaration
	for _, d := range v.Declarations {
		if d.Pairs == 0 {
			out = append(out, d.Declaration)
		}
	}
	return out
}
