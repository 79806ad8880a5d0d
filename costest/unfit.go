package costest

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// UnfitError says that no bounds at or above the floors make the selected
// expressions fit the static limits.
type UnfitError struct {
	// Exceeded are the limits still crossed with every candidate bound at
	// its floor (or, with no candidate, as the schema is).
	Exceeded []Exceeded
	// Rules are every selected expression over the per-expression limit
	// at the floors, costliest first, or, where only the version total is
	// over its limit, the costliest selected expression: all that one
	// estimate can tell, so that a user who bounds one node does not
	// meet the next rule over the limit on the following run.
	Rules []UnfitRule
	// Tried are the bounds that were tried, at their floors.
	Tried []NeededBound
}

// UnfitRule is one expression that does not fit, and what makes its cost.
type UnfitRule struct {
	// Cost is the expression's cost at the floors.
	Cost Cost
	// Dominant are the (at most three) nodes whose size makes most of
	// the cost, largest share first, with the bound they have or were
	// given.
	Dominant []NeededBound
}

// Error names the costliest expression, and counts the others over the
// per-expression limit.
func (e *UnfitError) Error() string {
	var b strings.Builder
	first := e.Rules[0]
	fmt.Fprintf(&b, "%s costs %d", first.Cost.Path(), first.Cost.Total)
	for _, x := range e.Exceeded {
		if x.Path == first.Cost.Path() {
			fmt.Fprintf(&b, ", over the %s limit %d", x.Limit.Name, x.Limit.Value)
		} else {
			fmt.Fprintf(&b, "; the %s total %d is over its limit %d", x.Limit.Name, x.Cost, x.Limit.Value)
		}
	}
	if len(e.Tried) > 0 {
		fmt.Fprintf(&b, ", even with %d bounds at their floors", len(e.Tried))
	} else {
		b.WriteString(", with the bounds the schema has (existing bounds are never lowered)")
	}
	if len(first.Dominant) > 0 {
		b.WriteString("; most of the cost comes from ")
		b.WriteString(describeBounds(first.Dominant))
	}
	if more := len(e.Rules) - 1; more > 0 {
		fmt.Fprintf(&b, "; and %d more over the per-expression limit", more)
	}
	return b.String()
}

// describeBounds lists bounds as "P (maxItems 64), Q (maxLength 253)".
func describeBounds(bounds []NeededBound) string {
	parts := make([]string, len(bounds))
	for i, d := range bounds {
		parts[i] = fmt.Sprintf("%s (%s %d)", NodePath(d.Node), d.Keyword, d.Value)
	}
	return strings.Join(parts, ", ")
}

// unfit builds the error for the schema with bounds tried (at their
// floors), whose estimate is r.
func (s *search) unfit(r *Report, tried []NeededBound) error {
	e := &UnfitError{Exceeded: s.misfits(r), Tried: tried}
	for _, c := range unfitCosts(r, s.opts.Selected) {
		dominant, err := s.dominant(c, tried)
		if err != nil {
			return err
		}
		e.Rules = append(e.Rules, UnfitRule{Cost: c, Dominant: dominant})
	}
	return e
}

// unfitCosts are the selected expressions of r over the per-expression
// limit, costliest first and otherwise in schema order, or, when none
// is, the costliest selected expression (the last of equals, in schema
// order).
func unfitCosts(r *Report, selected func(Cost) bool) []Cost {
	var over []Cost
	var costliest Cost
	for _, c := range r.Costs {
		if !selected(c) {
			continue
		}
		if c.Total > PerExpressionLimit.Value {
			over = append(over, c)
		}
		if c.Total >= costliest.Total {
			costliest = c
		}
	}
	if len(over) == 0 {
		return []Cost{costliest}
	}
	sort.SliceStable(over, func(i, j int) bool { return over[i].Total > over[j].Total })
	return over
}

// dominant finds the nodes whose size makes most of rule's cost: each node
// whose size enters it is set to 1 in turn, and the three whose bound
// lowers the cost most are kept.
func (s *search) dominant(rule Cost, tried []NeededBound) ([]NeededBound, error) {
	type share struct {
		bound NeededBound
		saved uint64
	}
	base := withBounds(s.root, tried)
	host := map[string]bool{nodeKey(rule.Node): true}
	var shares []share
	for _, b := range dominantCandidates(base, rule, s) {
		node, kw, value := b.Node, b.Keyword, b.Value
		r, err := estimateAt(withBounds(base, []NeededBound{{Node: node, Keyword: kw, Value: 1}}), s.env, host)
		if err != nil {
			return nil, err
		}
		if c, ok := r.find(rule); ok && c.Total < rule.Total {
			shares = append(shares, share{NeededBound{Node: node, Keyword: kw, Value: value}, rule.Total - c.Total})
		}
	}
	sort.SliceStable(shares, func(i, j int) bool { return shares[i].saved > shares[j].saved })
	var out []NeededBound
	for i := 0; i < len(shares) && i < 3; i++ {
		out = append(out, shares[i].bound)
	}
	return out, nil
}

// maxDominantCandidates caps the nodes dominant tries, one estimate of the
// rule each: a rule over a large schema reads hundreds.
const maxDominantCandidates = 6

// dominantCandidates are the nodes whose size enters rule's cost, with
// their bounds: the lists and maps, which multiply the cost, else the
// strings, which add to it; the largest bounds first, at most
// maxDominantCandidates of them.
func dominantCandidates(base *apiextensionsv1.JSONSchemaProps, rule Cost, s *search) []NeededBound {
	var lists, strs []NeededBound
	for _, node := range sizedNodes(base, rule.Node, rule.Expression, s.env) {
		kw, value := boundOf(nodeAt(base, node))
		switch kw {
		case "":
		case MaxLength:
			strs = append(strs, NeededBound{Node: node, Keyword: kw, Value: value})
		default:
			lists = append(lists, NeededBound{Node: node, Keyword: kw, Value: value})
		}
	}
	out := lists
	if len(out) == 0 {
		out = strs
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Value > out[j].Value })
	return out[:min(len(out), maxDominantCandidates)]
}

// boundOf names the bound that limits the size of values of n, and its
// value (0 when n has none).
func boundOf(n *apiextensionsv1.JSONSchemaProps) (string, int64) {
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	switch {
	case n.Type == "string" && len(n.Enum) == 0:
		return MaxLength, val(n.MaxLength)
	case n.Type == "array":
		return MaxItems, val(n.MaxItems)
	case isMap(n):
		return MaxProperties, val(n.MaxProperties)
	}
	return "", 0
}

// find returns the cost of the expression c stands for.
func (r *Report) find(c Cost) (Cost, bool) {
	for _, d := range r.Costs {
		if d.Index == c.Index && d.Kind == c.Kind && nodeKey(d.Node) == nodeKey(c.Node) {
			return d, true
		}
	}
	return Cost{}, false
}
