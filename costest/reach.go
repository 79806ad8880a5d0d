package costest

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Reach says how far the selected expressions of a version are sure to
// stay within the runtime limits. The estimator assumes every unbounded
// string, list and map as large as a request can hold, which no real
// object is; the runtime charges what an evaluation really does. So an
// expression whose worst case crosses the per-call limit (1M) is fine on
// objects up to some size, and Reach finds that size instead of bounding
// the schema to make the worst case fit.
type Reach struct {
	// OverPerCall are the selected expressions whose worst case crosses
	// the per-call limit, most expensive first.
	OverPerCall []Cost
	// PerObject is the worst case of all selected expressions together
	// on one object, which the per-object budget (10M) applies to; for
	// PolicyReach, of all validations of one binding on one request
	// (PerBindingLimit, also 10M).
	PerObject uint64
	// Sized are the unbounded nodes whose size enters the cost of the
	// selected expressions.
	Sized int
	// Within is true when the expressions stay within both runtime limits
	// on objects whose lists and maps hold at most Entries entries and
	// whose strings at most Length characters (the sizes that enter the
	// cost; 0 where none does): the largest ladder value for Entries, with
	// Length that value too but never below the maxLength floor. False
	// when even one entry and the floor's length do not keep them within.
	Within          bool
	Entries, Length int64
	// Costs are the estimates of the selected expressions, in schema
	// order.
	Costs []Cost
}

// Exceeds reports whether the worst case crosses a runtime limit at all.
func (r *Reach) Exceeds() bool {
	return len(r.OverPerCall) > 0 || r.PerObject > PerObjectLimit.Value
}

// RuntimeReach computes the Reach of the selected expressions of a version
// schema. floor is as in BoundOptions.
func RuntimeReach(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, selected func(Cost) bool, floor func([]string, string) int64) (*Reach, error) {
	return RuntimeReachOf(root, env, BoundOptions{Selected: selected, Floor: floor})
}

// RuntimeReachOf is RuntimeReach with the options of Bounds: Selected,
// Floor and Estimated (Explicit is not read).
func RuntimeReachOf(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, opts BoundOptions) (*Reach, error) {
	selected, floor := opts.Selected, opts.Floor
	full, err := opts.estimated(root, env)
	if err != nil {
		return nil, err
	}
	reach := &Reach{}
	for _, c := range full.Costs {
		if selected(c) {
			reach.Costs = append(reach.Costs, c)
			reach.PerObject = sum(reach.PerObject, c.Total)
		}
	}
	reach.OverPerCall = overPerCall(reach.Costs)
	if !reach.Exceeds() {
		return reach, nil
	}
	s := newSearch(root, env, BoundOptions{Selected: selected, Floor: floor}, full)
	candidates, existing := sizedBy(root, env, reach.Costs)
	reach.Sized = len(candidates)
	value := ladderValue(func(node []string) int64 { return s.floor(node, MaxLength) },
		func(node []string, _ string) int64 { return existing[nodeKey(node)] })
	level, _, err := s.highestLevel(candidates, len(ladder)-1, value, runtimeWithinLimits(selected))
	if err != nil || level < 0 {
		return reach, err
	}
	reach.Within = true
	for _, c := range candidates {
		if c.Keyword == MaxLength {
			reach.Length = value(nil, MaxLength, level)
		} else {
			reach.Entries = ladder[level]
		}
	}
	return reach, nil
}

// overPerCall are the costs over the per-call limit, most expensive
// first.
func overPerCall(costs []Cost) []Cost {
	var out []Cost
	for _, c := range costs {
		if c.PerCall > PerCallLimit.Value {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].PerCall > out[j].PerCall })
	return out
}

// runtimeWithinLimits reports whether the selected expressions of a
// report are each within the per-call limit and all together within the
// per-object budget.
func runtimeWithinLimits(selected func(Cost) bool) func(*Report) bool {
	return func(r *Report) bool {
		var perObject uint64
		for _, c := range r.Costs {
			if selected(c) {
				perObject = sum(perObject, c.Total)
				if c.PerCall > PerCallLimit.Value {
					return false
				}
			}
		}
		return perObject <= PerObjectLimit.Value
	}
}

// sizedBy lists the nodes whose size enters one of the costs, bounded or
// not (real objects are smaller than the bounds too), in schema order,
// with the bound each has (by node).
func sizedBy(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, costs []Cost) ([]NeededBound, map[string]int64) {
	var candidates []NeededBound
	existing := map[string]int64{}
	for _, c := range costs {
		for _, node := range sizedNodes(root, c.Node, c.Expression, env) {
			kw, v := boundOf(nodeAt(root, node))
			if kw != "" {
				candidates = append(candidates, NeededBound{Node: node, Keyword: kw})
				existing[nodeKey(node)] = v
			}
		}
	}
	return dedupe(candidates), existing
}

// ladderValue gives a sized node its value at a level of the ladder, as
// the reach searches do: the ladder's value, for a string never below
// lengthFloor, and a smaller bound the schema has (existing) kept.
func ladderValue(lengthFloor func(node []string) int64, existing func(node []string, keyword string) int64) valueFunc {
	return func(node []string, keyword string, level int) int64 {
		v := ladder[level]
		if keyword == MaxLength {
			v = max(v, lengthFloor(node))
		}
		if e := existing(node, keyword); e > 0 && e < v {
			return e
		}
		return v
	}
}

// Worst says how far the worst case goes past the runtime limits, for a
// message: "worst case 4010002 per call, 6369318 per object", the per-call
// figure being the costliest expression's. When no expression alone
// crosses the per-call limit, only the per-object budget is crossed, and
// the message says so rather than give a per-call figure of 0.
func (r *Reach) Worst() string {
	if len(r.OverPerCall) == 0 {
		return fmt.Sprintf("worst case %d per object; no rule alone is over the per-call limit", r.PerObject)
	}
	return fmt.Sprintf("worst case %d per call, %d per object", r.OverPerCall[0].PerCall, r.PerObject)
}

// Sizes says what Within holds for: "lists and maps hold at most 500
// entries and strings at most 500 characters".
func (r *Reach) Sizes() string {
	var parts []string
	if r.Entries > 0 {
		parts = append(parts, fmt.Sprintf("lists and maps hold at most %d entries", r.Entries))
	}
	if r.Length > 0 {
		parts = append(parts, fmt.Sprintf("strings at most %d characters", r.Length))
	}
	return strings.Join(parts, " and ")
}
