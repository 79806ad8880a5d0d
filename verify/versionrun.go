package verify

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/storage"
	"github.com/mut2cel/mut2cel/verify/internal/validity"
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
	store   *storage.Node // the storage pipeline of s
	objects *kube.ObjectValidator
	// validity decides what objects does, for less (validity.go).
	validity *validity.Validator
	meta     resourceMeta
	judge    Judge
	gen      *pairgen.Generator
	rules    []*ruleRef // built on the first counterexample
	decls    []reference.Declaration
	causes   map[string]*CauseReport
	groups   map[string]*GroupReport
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
		opts: opts, crd: tested.Name, version: tv.Name, checker: checker, s: s, store: storage.Compile(s),
		objects: objects, validity: validity.New(objects.Parts()), meta: resourceMetaOf(tested, tv.Name, s), judge: judge, gen: pairgen.NewDeclared(s, opts.Seed, checker),
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
		if r.opts.StopAtDisagreement && rep.Disagreements > 0 {
			break
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
	// stored are the old objects stored and validated, kept while a
	// mend leaves them as they are.
	stored []*oldStored
}

func (r *versionRun) judgeBatch(n int) *pairBatch {
	b := &pairBatch{old: make([]map[string]interface{}, n), new: make([]map[string]interface{}, n), verdicts: make([]verdicts, n), errs: make([]error, n), stored: make([]*oldStored, n)}
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
				if v.refusal.Object == "old" {
					b.stored[k] = nil // mended
				}
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
				b.verdicts[k], b.stored[k], b.errs[k] = r.compareKnown(b.old[k], b.new[k], b.stored[k])
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
