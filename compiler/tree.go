package compiler

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
)

// nodeDecls is what one schema node declares (the compiler's view,
// declaration), and the decl.Declaration behind each extension: where it
// was written, for the rules it needs to name it.
type nodeDecls struct {
	declaration
	byExt map[string]decl.Declaration
}

// declare takes one checked declaration of n.
func (p *planner) declare(n *crd.Node, d decl.Declaration) {
	if p.declared == nil {
		p.declared = map[*crd.Node]*nodeDecls{}
	}
	nd := p.declared[n]
	if nd == nil {
		nd = &nodeDecls{byExt: map[string]decl.Declaration{}}
		p.declared[n] = nd
	}
	nd.byExt[d.Ext] = d
	nd.add(d)
}

// declarations lists, in schema walk order and the order of
// decl.Extensions on each node, every declaration below root.
func (p *planner) declarations(root *crd.Node) []decl.Declaration {
	var out []decl.Declaration
	root.Walk(func(n *crd.Node) {
		nd := p.declared[n]
		if nd == nil {
			return
		}
		for _, ext := range decl.Extensions {
			if d, ok := nd.byExt[ext]; ok {
				out = append(out, d)
			}
		}
	})
	return out
}
