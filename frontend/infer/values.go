package infer

import (
	"sort"

	"github.com/mut2cel/mut2cel/decl"
)

// values writes a proposal's declarations in the form of decl.Field.Values:
// the KEP value Immutable where the constraints are exactly what it means
// on the node (docs/semantics.md 9.2), the list of x-kubernetes-update
// otherwise; the formats modifier beside them; the unions.
func values(p *Proposal) map[string]string {
	out := map[string]string{}
	c := p.constraints
	if self, _, _ := decl.KEP(decl.ExtMutability, decl.Immutable, p.Path.IsEntry()); c == self && c != 0 {
		out[decl.ExtMutability] = decl.Immutable
	} else if c != 0 {
		out[decl.ExtUpdate] = c.String()
	}
	if p.formats && c != 0 {
		out[decl.ExtFormats] = decl.CompareAsValues
	}
	if len(p.unions) > 0 {
		us := append([]decl.Union(nil), p.unions...)
		sort.SliceStable(us, func(i, j int) bool { return unionKey(us[i]) < unionKey(us[j]) })
		out[decl.ExtUnions] = decl.UnionsText(us)
	}
	return out
}
