package costest

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Keywords of the bounds Bounds adds.
const (
	MaxLength     = "maxLength"
	MaxItems      = "maxItems"
	MaxProperties = "maxProperties"
)

// Bound is a maxLength, maxItems or maxProperties to add to a schema node.
type Bound struct {
	Node    []string
	Keyword string
	Value   int64
}

func (b Bound) String() string { return fmt.Sprintf("%s: %s %d", NodePath(b.Node), b.Keyword, b.Value) }

// BoundOptions say which rules must fit and which values to use.
type BoundOptions struct {
	// Selected reports whether an expression must fit the limits. Only the
	// nodes of selected expressions, and the lists and maps above them, get
	// bounds.
	Selected func(Cost) bool
	// Explicit values for each keyword; 0 lets Bounds choose.
	Explicit map[string]int64
}

// ladder lists the values Bounds tries, largest first: round numbers, so
// that a reader of the schema sees a deliberate limit.
var ladder = []int64{1000000, 500000, 200000, 100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1}

// Bounds returns the bounds that make every selected expression fit: each
// one's worst case under the runtime per-call limit and, times its
// cardinality, under the per-expression limit; the version total under the
// per-version limit; and the selected expressions together under the
// runtime per-object budget left by the others. It returns no bounds when
// they fit already.
//
// The choice: every unbounded string, list and map inside a node carrying
// a selected expression, or enclosing one, is a candidate. All candidates
// start at one value, the largest of the ladder that fits; then candidates
// that are not needed are dropped, and each remaining one is raised as far
// as the ladder allows while everything still fits. Existing bounds are
// never changed.
func Bounds(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, opts BoundOptions) ([]Bound, error) {
	s := &search{root: root, env: env, opts: opts}
	report, err := Estimate(root, env)
	if err != nil {
		return nil, err
	}
	if s.fits(report) {
		return nil, nil
	}
	candidates := s.candidates(report)
	if len(candidates) == 0 {
		return nil, s.unfit(report, nil)
	}
	bounds, err := s.uniform(candidates)
	if err != nil {
		return nil, err
	}
	bounds, err = s.drop(bounds)
	if err != nil {
		return nil, err
	}
	return s.raise(bounds)
}

type search struct {
	root *apiextensionsv1.JSONSchemaProps
	env  *environment.EnvSet
	opts BoundOptions
}

// fits reports whether the selected expressions fit every limit.
func (s *search) fits(r *Report) bool {
	return len(s.misfits(r)) == 0
}

// misfits lists the limits the selected expressions cross.
func (s *search) misfits(r *Report) []Exceeded {
	var out []Exceeded
	var selected, others uint64
	for _, c := range r.Costs {
		if !s.opts.Selected(c) {
			others = sum(others, c.Total)
			continue
		}
		selected = sum(selected, c.Total)
		if c.PerCall > PerCallLimit.Value {
			out = append(out, Exceeded{PerCallLimit, c.Path(), c.PerCall})
		}
		if c.Total > PerExpressionLimit.Value {
			out = append(out, Exceeded{PerExpressionLimit, c.Path(), c.Total})
		}
	}
	// Rules others wrote may use up a whole budget alone; then bounds on
	// our nodes cannot help, and CRD validation or the cost report says so.
	if others < PerVersionLimit.Value && r.Total > PerVersionLimit.Value {
		out = append(out, Exceeded{PerVersionLimit, "openAPIV3Schema", r.Total})
	}
	if others < PerObjectLimit.Value && selected > PerObjectLimit.Value-others {
		out = append(out, Exceeded{PerObjectLimit, "openAPIV3Schema", sum(selected, others)})
	}
	return out
}

// estimate computes the report of the schema with bounds added.
func (s *search) estimate(bounds []Bound) (*Report, error) {
	root := s.root.DeepCopy()
	for _, b := range bounds {
		setBound(root, b)
	}
	return Estimate(root, s.env)
}

func (s *search) fitsWith(bounds []Bound) (bool, error) {
	r, err := s.estimate(bounds)
	if err != nil {
		return false, err
	}
	return s.fits(r), nil
}

// value is the explicit value for a keyword, or v.
func (s *search) value(keyword string, v int64) int64 {
	if e := s.opts.Explicit[keyword]; e > 0 {
		return e
	}
	return v
}

// uniform gives every candidate the largest ladder value that fits.
func (s *search) uniform(candidates []Bound) ([]Bound, error) {
	for _, v := range ladder {
		bounds := make([]Bound, len(candidates))
		for i, c := range candidates {
			bounds[i] = Bound{Node: c.Node, Keyword: c.Keyword, Value: s.value(c.Keyword, v)}
		}
		ok, err := s.fitsWith(bounds)
		if err != nil {
			return nil, err
		}
		if ok {
			return bounds, nil
		}
	}
	smallest := make([]Bound, len(candidates))
	for i, c := range candidates {
		smallest[i] = Bound{Node: c.Node, Keyword: c.Keyword, Value: s.value(c.Keyword, ladder[len(ladder)-1])}
	}
	r, err := s.estimate(smallest)
	if err != nil {
		return nil, err
	}
	return nil, s.unfit(r, smallest)
}

// drop removes, in schema order, every bound the others make unnecessary.
func (s *search) drop(bounds []Bound) ([]Bound, error) {
	for i := 0; i < len(bounds); {
		rest := append(append([]Bound{}, bounds[:i]...), bounds[i+1:]...)
		ok, err := s.fitsWith(rest)
		if err != nil {
			return nil, err
		}
		if ok {
			bounds = rest
			continue
		}
		i++
	}
	return bounds, nil
}

// raise moves each bound, in schema order, up the ladder while everything
// still fits. Explicit values stay as given.
func (s *search) raise(bounds []Bound) ([]Bound, error) {
	for i := range bounds {
		if s.opts.Explicit[bounds[i].Keyword] > 0 {
			continue
		}
		for _, v := range ladder {
			if v <= bounds[i].Value {
				break
			}
			saved := bounds[i].Value
			bounds[i].Value = v
			ok, err := s.fitsWith(bounds)
			if err != nil {
				return nil, err
			}
			if ok {
				break
			}
			bounds[i].Value = saved
		}
	}
	return bounds, nil
}

// UnfitError says that no bound mut2cel may add makes the selected
// expressions fit.
type UnfitError struct {
	// Exceeded are the limits still crossed with every candidate bound at
	// its smallest value (or, with no candidate, as the schema is).
	Exceeded []Exceeded
	// Tried are the bounds that were tried.
	Tried []Bound
}

func (e *UnfitError) Error() string {
	parts := make([]string, len(e.Exceeded))
	for i, x := range e.Exceeded {
		parts[i] = fmt.Sprintf("%s: %s cost %d > %d", x.Path, x.Limit.Name, x.Cost, x.Limit.Value)
	}
	how := "no string, list or map around the rules lacks a bound, and existing bounds are never lowered"
	if len(e.Tried) > 0 {
		how = "even with the added bounds " + fmt.Sprint(e.Tried)
	}
	return fmt.Sprintf("the rules do not fit the cost limits (%s): %s", how, strings.Join(parts, "; "))
}

func (s *search) unfit(r *Report, tried []Bound) error {
	return &UnfitError{Exceeded: s.misfits(r), Tried: tried}
}

// candidates are the unbounded nodes inside or above a node with a
// selected expression, in schema order.
func (s *search) candidates(r *Report) []Bound {
	hosts := map[string][]string{}
	for _, c := range r.Costs {
		if s.opts.Selected(c) {
			hosts[strings.Join(c.Node, "\x00")] = c.Node
		}
	}
	seen := map[string]bool{}
	var out []Bound
	add := func(node []string, n *apiextensionsv1.JSONSchemaProps) {
		key := strings.Join(node, "\x00")
		if kw := missingBound(n); kw != "" && !seen[key] {
			seen[key] = true
			out = append(out, Bound{Node: node, Keyword: kw, Value: ladder[len(ladder)-1]})
		}
	}
	for _, host := range hosts {
		n := s.root
		for i := 0; i <= len(host); i++ {
			add(host[:i], n)
			if i < len(host) {
				n, i = child(n, host, i)
			}
		}
		walkSchema(n, host, add)
	}
	sort.Slice(out, func(i, j int) bool { return NodePath(out[i].Node).String() < NodePath(out[j].Node).String() })
	return out
}

// missingBound names the bound a node lacks, or "".
func missingBound(n *apiextensionsv1.JSONSchemaProps) string {
	switch {
	case n.Type == "string" && n.MaxLength == nil && len(n.Enum) == 0:
		return MaxLength
	case n.Type == "array" && n.MaxItems == nil:
		return MaxItems
	case n.Type == "object" && n.AdditionalProperties != nil && n.AdditionalProperties.Schema != nil && n.MaxProperties == nil:
		return MaxProperties
	}
	return ""
}
