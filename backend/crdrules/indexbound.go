package crdrules

import (
	"sort"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/plan"
)

// indexBound is the number of indices indexPairs enumerates on list below
// Kubernetes 1.33: the list's own maxItems, when it is small enough, else
// the maxItems given for it, which the list then gets (g.added). A given
// value larger than the list's own is never used: the smaller holds.
func (g *exprGen) indexBound(list *crd.Node) (int64, bool) {
	own := int64(-1)
	if vv := list.Schema.ValueValidation; vv != nil && vv.MaxItems != nil {
		own = *vv.MaxItems
	}
	if own >= 0 && own <= maxIndexList {
		return own, true
	}
	given, ok := g.givenMaxItems[list.Path.String()]
	if !ok || given > maxIndexList {
		return 0, false
	}
	if g.added == nil {
		g.added = map[string]plan.Bound{}
	}
	g.added[list.Path.String()] = plan.Bound{Node: list.Path, Keyword: "maxItems", Value: given}
	return given, true
}

// addedBounds lists the bounds indexBound took, in schema order.
func (g *exprGen) addedBounds() []plan.Bound {
	var out []plan.Bound
	for _, b := range g.added {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return plan.Less(out[i].Node, out[j].Node) })
	return out
}
