package costest

import (
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Keywords of the bounds Bounds adds.
const (
	MaxLength     = "maxLength"
	MaxItems      = "maxItems"
	MaxProperties = "maxProperties"
)

// DefaultFloors are the smallest bounds Bounds adds: what real objects
// need. 253 characters hold any Kubernetes object name (a DNS subdomain);
// 64 entries are more than the containers, ports, volumes or environment
// variables of real pods.
var DefaultFloors = map[string]int64{MaxLength: 253, MaxItems: 64, MaxProperties: 64}

// NeededBound is a maxLength, maxItems or maxProperties to add to a schema node.
type NeededBound struct {
	Node    []string
	Keyword string
	Value   int64
}

func (b NeededBound) String() string {
	return fmt.Sprintf("%s: %s %d", NodePath(b.Node), b.Keyword, b.Value)
}

// BoundOptions say which rules must fit and which values to use.
type BoundOptions struct {
	// Selected reports whether an expression is one the bounds are for.
	// Only the nodes whose size enters the cost of a selected expression
	// get bounds.
	Selected func(Cost) bool
	// Explicit values for each keyword; 0 lets Bounds choose.
	Explicit map[string]int64
	// Floor, when set, gives the smallest value for a keyword on a node;
	// 0 means the keyword's DefaultFloors value.
	Floor func(node []string, keyword string) int64
	// Estimated, when set, is Estimate's report of the same schema in
	// the same environment, made already: Bounds and RuntimeReach then
	// do not make it again.
	Estimated *Report
}

// estimated is opts.Estimated, or the estimate of root made now.
func (opts BoundOptions) estimated(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet) (*Report, error) {
	if opts.Estimated != nil {
		return opts.Estimated, nil
	}
	return Estimate(root, env)
}

// ladder lists the values Bounds tries above the floors, and RuntimeReach
// at any size, smallest first: round numbers, so that a reader of the
// schema sees a deliberate limit.
var ladder = []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000}

// Bounds returns the bounds without which a selected expression would
// cross a static limit: its cost times cardinality over the per-expression
// limit, or the version total over the per-version limit. It returns no
// bounds when they fit already. The runtime limits are not a reason for a
// bound: they are judged on realistic objects by RuntimeReach, not on the worst
// case the estimator assumes, so a schema is never narrowed to make an
// astronomical worst case fit.
//
// The choice: the candidates are the unbounded nodes whose size enters the
// cost of an expression over the per-expression limit (sizedNodes), or,
// when that is not enough for the version total, of every selected
// expression. Each gets its floor; if the expressions do not fit even
// then, Bounds fails with an UnfitError. Otherwise all candidates are
// raised together, a step of the ladder at a time, as far as everything
// still fits. Existing bounds are never changed.
func Bounds(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, opts BoundOptions) ([]NeededBound, error) {
	full, err := opts.estimated(root, env)
	if err != nil {
		return nil, err
	}
	s := newSearch(root, env, opts, full)
	if len(s.misfits(full)) == 0 {
		return nil, nil
	}
	fits := func(r *Report) bool { return len(s.misfits(r)) == 0 }
	// First the expressions over the per-expression limit; only if the
	// version total needs more, every selected expression.
	candidates := s.candidates(full, false)
	level, r, err := s.highestLevel(candidates, len(ladder), s.valueAt, fits)
	if err == nil && level < 0 && onlyVersionTotal(s.misfits(r)) {
		candidates = s.candidates(full, true)
		level, r, err = s.highestLevel(candidates, len(ladder), s.valueAt, fits)
	}
	if err != nil {
		return nil, err
	}
	if level < 0 {
		return nil, s.unfit(r, at(candidates, 0, s.valueAt))
	}
	return at(candidates, level, s.valueAt), nil
}

// highestLevel finds the highest of the levels 0..top at which the
// candidates, each given value(node, keyword, level), make fits true, by
// bisection: costs grow with bounds, so the levels that fit are 0 up to
// the highest. It returns -1, and the report at level 0, when even level
// 0 does not fit.
func (s *search) highestLevel(candidates []NeededBound, top int, value valueFunc, fits func(*Report) bool) (int, *Report, error) {
	return highestLevel(top, func(level int) (*Report, error) { return s.estimate(at(candidates, level, value)) }, fits)
}

// highestLevel is the bisection of search.highestLevel over any estimate
// that grows with the level.
func highestLevel(top int, estimate func(level int) (*Report, error), fits func(*Report) bool) (int, *Report, error) {
	r, err := estimate(0)
	if err != nil || !fits(r) {
		return -1, r, err
	}
	lo, hi := 0, top
	for lo < hi {
		mid := (lo + hi + 1) / 2
		r, err := estimate(mid)
		if err != nil {
			return 0, nil, err
		}
		if fits(r) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil, nil
}

// onlyVersionTotal reports whether the version total is the only limit
// crossed: bounds on the nodes of other rules can help with it, but not
// with a rule over the per-expression limit, whose own nodes are bounded
// already.
func onlyVersionTotal(misfits []Exceeded) bool {
	for _, x := range misfits {
		if x.Limit != PerVersionLimit {
			return false
		}
	}
	return true
}

type search struct {
	root  *apiextensionsv1.JSONSchemaProps
	env   *environment.EnvSet
	opts  BoundOptions
	hosts map[string]bool // nodes with selected expressions
	// others is the total of the expressions not selected, as the schema
	// is: bounds only lower costs, so it stays an upper bound.
	others uint64
}

func newSearch(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, opts BoundOptions, full *Report) *search {
	s := &search{root: root, env: env, opts: opts, hosts: map[string]bool{}}
	for _, c := range full.Costs {
		if opts.Selected(c) {
			s.hosts[nodeKey(c.Node)] = true
		} else {
			s.others = sum(s.others, c.Total)
		}
	}
	return s
}

// misfits lists the static limits the selected expressions cross. r holds
// the selected expressions, and maybe others, which are skipped.
func (s *search) misfits(r *Report) []Exceeded {
	var out []Exceeded
	var selected uint64
	for _, c := range r.Costs {
		if !s.opts.Selected(c) {
			continue
		}
		selected = sum(selected, c.Total)
		if c.Total > PerExpressionLimit.Value {
			out = append(out, Exceeded{PerExpressionLimit, c.Path(), c.Total})
		}
	}
	// Rules others wrote may use up the whole budget alone; then bounds on
	// our nodes cannot help, and CRD validation or the cost report says so.
	if total := sum(selected, s.others); s.others < PerVersionLimit.Value && total > PerVersionLimit.Value {
		out = append(out, Exceeded{PerVersionLimit, VersionPath, total})
	}
	return out
}

// estimate computes the costs of the selected expressions with bounds
// added.
func (s *search) estimate(bounds []NeededBound) (*Report, error) {
	return estimateAt(withBounds(s.root, bounds), s.env, s.hosts)
}

func withBounds(root *apiextensionsv1.JSONSchemaProps, bounds []NeededBound) *apiextensionsv1.JSONSchemaProps {
	out := root.DeepCopy()
	for _, b := range bounds {
		SetBound(out, b)
	}
	return out
}

// valueFunc gives the value of a bound on a node at a level.
type valueFunc func(node []string, keyword string, level int) int64

// at gives every candidate its value at a level.
func at(candidates []NeededBound, level int, value valueFunc) []NeededBound {
	out := make([]NeededBound, len(candidates))
	for i, c := range candidates {
		out[i] = NeededBound{Node: c.Node, Keyword: c.Keyword, Value: value(c.Node, c.Keyword, level)}
	}
	return out
}

// valueAt is the value of the bounds Bounds adds: an explicit value as
// given; otherwise the floor at level 0, and the level-th ladder value
// above the floor after that.
func (s *search) valueAt(node []string, keyword string, level int) int64 {
	if v := s.opts.Explicit[keyword]; v > 0 {
		return v
	}
	v := s.floor(node, keyword)
	for _, step := range ladder {
		if level == 0 {
			break
		}
		if step > v {
			v = step
			level--
		}
	}
	return v
}

func (s *search) floor(node []string, keyword string) int64 {
	if s.opts.Floor != nil {
		if v := s.opts.Floor(node, keyword); v > 0 {
			return v
		}
	}
	return DefaultFloors[keyword]
}

// candidates are the unbounded nodes whose size enters the cost of an
// expression that needs a bound, in schema order: those over the
// per-expression limit, or, with all, every selected expression (when the
// version total is over its limit even with the first at their floors).
func (s *search) candidates(r *Report, all bool) []NeededBound {
	var out []NeededBound
	for _, c := range r.Costs {
		if s.opts.Selected(c) && (all || c.Total > PerExpressionLimit.Value) {
			out = append(out, s.unbounded(c)...)
		}
	}
	return dedupe(out)
}

// unbounded lists the nodes without a bound whose size enters the cost of
// c, with the keyword each lacks.
func (s *search) unbounded(c Cost) []NeededBound {
	var out []NeededBound
	for _, node := range sizedNodes(s.root, c.Node, c.Expression, s.env) {
		if kw := missingBound(nodeAt(s.root, node)); kw != "" {
			out = append(out, NeededBound{Node: node, Keyword: kw})
		}
	}
	return out
}

// dedupe removes repeated nodes and sorts bounds in schema order.
func dedupe(bounds []NeededBound) []NeededBound {
	seen := map[string]bool{}
	var out []NeededBound
	for _, b := range bounds {
		if key := nodeKey(b.Node) + "\x00" + b.Keyword; !seen[key] {
			seen[key] = true
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return NodePath(out[i].Node).String() < NodePath(out[j].Node).String() })
	return out
}

// missingBound names the bound a node lacks, or "".
func missingBound(n *apiextensionsv1.JSONSchemaProps) string {
	if kw, value := boundOf(n); value == 0 {
		return kw
	}
	return ""
}
