package costest

import (
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// PerBindingLimit is the runtime budget of one binding of a validating
// admission policy on one request: the sum of what its expressions
// charge. Each expression call has the per-call limit (PerCallLimit) as
// for CRD rules.
var PerBindingLimit = Limit{"per-binding", celconfig.RuntimeCELCostBudget, false,
	"runtime cost of all expressions of one policy binding on one request"}

// PolicyReach is the Reach of the validations of a policy on the
// resource whose version schema is root: how large objects may grow
// before an expression may cross the per-call limit, or all of them
// together the per-binding budget. The Reach's PerObject is the worst
// case of the binding, which PerBindingLimit applies to (the same 10M
// as the per-object budget of CRD rules).
//
// The search is RuntimeReach's: every string, list and map of the
// schema is given the same ladder value (strings never below the
// maxLength floor, an existing smaller bound kept), and the highest
// level at which everything stays within is found by bisection. Then the
// sizes that do not matter are dropped: Length is 0 when bounding the
// lists and maps alone keeps the expressions within at that level,
// Entries when bounding the strings alone does.
func PolicyReach(root *apiextensionsv1.JSONSchemaProps, p Policy) (*Reach, error) {
	full, err := EstimatePolicy(root, p)
	if err != nil {
		return nil, err
	}
	reach := &Reach{Costs: full.Costs, PerObject: full.Total, OverPerCall: overPerCall(full.Costs)}
	if !reach.Exceeds() {
		return reach, nil
	}
	candidates, existing := sizeableNodes(root)
	reach.Sized = len(candidates)
	value := ladderValue(func([]string) int64 { return DefaultFloors[MaxLength] },
		func(node []string, keyword string) int64 { return existing[nodeKey(node)+"\x00"+keyword] })
	estimate := func(bounds []NeededBound) (*Report, error) {
		return EstimatePolicy(withBounds(root, bounds), p)
	}
	level, _, err := highestLevel(len(ladder)-1, func(level int) (*Report, error) {
		return estimate(at(candidates, level, value))
	}, policyWithinLimits)
	if err != nil || level < 0 {
		return reach, err
	}
	reach.Within, reach.Entries, reach.Length = true, ladder[level], max(ladder[level], DefaultFloors[MaxLength])
	if err := dropIdleSizes(reach, at(candidates, level, value), estimate); err != nil {
		return nil, err
	}
	return reach, nil
}

// sizeableNodes lists every node of the schema whose size the estimator
// charges by, with the bound it has (by node and keyword).
func sizeableNodes(root *apiextensionsv1.JSONSchemaProps) ([]NeededBound, map[string]int64) {
	var candidates []NeededBound
	existing := map[string]int64{}
	walkSizeable(root, nil, func(node []string, n *apiextensionsv1.JSONSchemaProps) {
		kw, v := boundOf(n)
		candidates = append(candidates, NeededBound{Node: node, Keyword: kw})
		existing[nodeKey(node)+"\x00"+kw] = v
	})
	return candidates, existing
}

// dropIdleSizes drops from reach the sizes that do not matter at the
// level the bounds are at: Length when bounding the lists and maps alone
// keeps the expressions within, else Entries when bounding the strings
// alone does.
func dropIdleSizes(reach *Reach, bounds []NeededBound, estimate func([]NeededBound) (*Report, error)) error {
	for _, strings := range []bool{false, true} {
		r, err := estimate(only(bounds, strings))
		if err != nil {
			return err
		}
		if policyWithinLimits(r) {
			if strings {
				reach.Entries = 0
			} else {
				reach.Length = 0
			}
			break
		}
	}
	return nil
}

// only keeps the bounds of strings (maxLength), or those of lists and
// maps.
func only(bounds []NeededBound, strings bool) []NeededBound {
	var out []NeededBound
	for _, b := range bounds {
		if (b.Keyword == MaxLength) == strings {
			out = append(out, b)
		}
	}
	return out
}

// policyWithinLimits reports whether every expression of r is within
// the per-call limit and all together within the per-binding budget.
func policyWithinLimits(r *Report) bool {
	for _, c := range r.Costs {
		if c.PerCall > PerCallLimit.Value {
			return false
		}
	}
	return r.Total <= PerBindingLimit.Value
}

// walkSizeable calls f on every node of the schema below n whose size
// the estimator charges by (sizeable: strings without enum, lists,
// maps), in schema order.
func walkSizeable(n *apiextensionsv1.JSONSchemaProps, node []string, f func([]string, *apiextensionsv1.JSONSchemaProps)) {
	if kw, _ := boundOf(n); kw != "" {
		f(node, n)
	}
	if n.AdditionalProperties != nil && n.AdditionalProperties.Schema != nil {
		walkSizeable(n.AdditionalProperties.Schema, appendStep(node, "additionalProperties"), f)
	}
	names := slices.Sorted(maps.Keys(n.Properties))
	for _, name := range names {
		p := n.Properties[name]
		walkSizeable(&p, appendStep(node, "properties", name), f)
	}
	if n.Items != nil && n.Items.Schema != nil {
		walkSizeable(n.Items.Schema, appendStep(node, "items"), f)
	}
}
