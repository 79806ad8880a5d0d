package pairgen

import (
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// The pair generator and unions. A structural schema has no
// x-kubernetes-unions, so the generator learns the unions from the
// checker (useUnions), by schema path. Objects of a union's node are then
// shaped, half of the time, to one of the cases of semantics.md,
// "Unions", and one mutation in two aimed at such a node changes its
// membership or its discriminator (unionOp). Without unions the
// generator draws exactly the numbers it drew before.

// gunion is what the generator needs of one union.
type gunion struct {
	members       []string
	values        []string // discriminator value of each member
	discriminator string   // "" when none
	// zero says of each member that its zero value reads as unset
	// (zeroIsUnset): the generator sets it to that value now and then.
	zero []bool
}

// unknownValue is a discriminator value meant to select no member: the
// random schemas give none this value, and hand-written ones hardly.
const unknownValue = "0-unknown"

// useUnions gives the nodes of g the unions the checker c reads at the
// same schema paths.
func (g *Generator) useUnions(c *reference.Checker) {
	for _, u := range c.Unions() {
		gn := g.root.at(u.Path)
		if gn == nil || gn.kind != kindObject {
			continue
		}
		gu := gunion{discriminator: u.Discriminator}
		for _, m := range u.Members {
			if gn.propIdx[m.Name] != nil {
				gu.members = append(gu.members, m.Name)
				gu.values = append(gu.values, m.Value)
				gu.zero = append(gu.zero, m.ZeroIsUnset)
			}
		}
		if u.Discriminator != "" && gn.propIdx[u.Discriminator] == nil {
			gu.discriminator = ""
		}
		if len(gu.members) > 0 {
			gn.unions = append(gn.unions, gu)
		}
	}
}

// shapeUnions shapes the generated object m of n, one union at a time.
func (g *Generator) shapeUnions(n *gnode, m map[string]interface{}) {
	for _, u := range n.unions {
		if g.rnd.Intn(2) == 0 {
			g.shapeUnion(n, u, m)
		}
	}
}

// Shapes of a union's node, valid and not.
const (
	shapeOne         = iota // one member, selected
	shapeNone               // no member, nothing or an unknown value selected
	shapeTwo                // two members (or one, twice), each possibly selected
	shapeNull               // a member sent as null, another set
	shapeUnselected         // a member set, another selected
	shapeUnknown            // a member set, an unknown value selected
	shapeNoSelection        // a member set, the discriminator unset
	numShapes
)

func (g *Generator) shapeUnion(n *gnode, u gunion, m map[string]interface{}) {
	for _, name := range u.members {
		if !n.required[name] {
			delete(m, name)
		}
	}
	i, j := g.rnd.Intn(len(u.members)), g.rnd.Intn(len(u.members))
	g.setMember(n, u, m, i)
	switch g.rnd.Intn(numShapes) {
	case shapeOne:
		g.discriminate(n, u, m, u.values[i])
	case shapeNone:
		delete(m, u.members[i])
		g.discriminate(n, u, m, []string{unknownValue, ""}[g.rnd.Intn(2)])
	case shapeTwo:
		g.setMember(n, u, m, j)
		g.discriminate(n, u, m, u.values[[]int{i, j}[g.rnd.Intn(2)]])
	case shapeNull:
		m[u.members[j]] = nil
		g.discriminate(n, u, m, u.values[i])
	case shapeUnselected:
		g.discriminate(n, u, m, u.values[j])
	case shapeUnknown:
		g.discriminate(n, u, m, unknownValue)
	case shapeNoSelection:
		g.discriminate(n, u, m, "")
	}
}

// setMember sets member i, to its zero value one time in three where
// that reads as unset: then it is present and yet unset.
func (g *Generator) setMember(n *gnode, u gunion, m map[string]interface{}, i int) {
	c := n.propIdx[u.members[i]]
	if u.zero[i] && g.rnd.Intn(3) == 0 {
		if z, ok := zeroOf(c); ok {
			m[u.members[i]] = z
			return
		}
	}
	m[u.members[i]] = g.value(c)
}

// zeroOf is the zero value of the type of n, as stored.
func zeroOf(n *gnode) (interface{}, bool) {
	switch {
	case n.kind == kindList:
		return []interface{}{}, true
	case n.kind == kindMap:
		return map[string]interface{}{}, true
	case n.kind != kindScalar:
		return nil, false
	}
	switch n.s.Type {
	case "string":
		return "", true
	case "integer", "number":
		return int64(0), true
	case "boolean":
		return false, true
	}
	return nil, false
}

// discriminate sets the discriminator to value; "" unsets it, but for a
// discriminator the schema requires, which then selects a member chosen
// at random instead (a value its enum, if any, holds): an object without it fails
// schema validation, and the pair would be set aside rather than judged.
func (g *Generator) discriminate(n *gnode, u gunion, m map[string]interface{}, value string) {
	if u.discriminator == "" {
		return
	}
	if value == "" && n.required[u.discriminator] {
		value = u.values[g.rnd.Intn(len(u.values))]
	}
	if value == "" {
		delete(m, u.discriminator)
		return
	}
	m[u.discriminator] = value
}

// unionOp changes one union of the node at path in the new object: a
// member set, removed or nulled, the discriminator set to a member's
// value or an unknown one, or removed.
func (g *Generator) unionOp(holder map[string]interface{}, path schemapath.Path) bool {
	p, ok := g.reach(holder, path, true)
	if !ok {
		return false
	}
	v, present := p.at.get()
	m, isObj := v.(map[string]interface{})
	if !present || !isObj {
		return false
	}
	u := p.n.unions[g.rnd.Intn(len(p.n.unions))]
	i := g.rnd.Intn(len(u.members))
	switch g.rnd.Intn(6) {
	case 0:
		g.setMember(p.n, u, m, i)
	case 1:
		if p.n.required[u.members[i]] {
			return false
		}
		delete(m, u.members[i])
	case 2:
		m[u.members[i]] = nil
	case 3:
		g.discriminate(p.n, u, m, u.values[i])
	case 4:
		g.discriminate(p.n, u, m, unknownValue)
	default:
		g.discriminate(p.n, u, m, "")
	}
	return true
}
