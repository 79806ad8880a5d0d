package compiler

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// unionPlacement says why the unions d declares cannot stand on the
// schema node raw (semantics.md, Unions), every reason at once: the node
// must be an object with properties outside metadata, the unions
// consistent in themselves (decl.CheckUnions), every member a property
// of the node, the discriminator a string property whose CEL value is
// the stored string.
func unionPlacement(d decl.Declaration, raw map[string]interface{}) (Problem, bool) {
	if len(d.Path) > 0 && !d.Path[0].Entries && d.Path[0].Name == "metadata" {
		return errInMetadata(), true
	}
	us, err := decl.ParseUnionsText(d.Value)
	if err == nil {
		err = decl.CheckUnions(us)
	}
	if err != nil {
		return NewProblem(Invalid, "%v", err), true
	}
	props, _ := raw["properties"].(map[string]interface{})
	if raw["type"] != "object" || len(props) == 0 {
		return NewProblem(Forbidden, "only allowed on type: object with properties: the members and the discriminator of a union are properties of the node that declares it"), true
	}
	var why []string
	for i, u := range us {
		for _, m := range u.Members {
			p, ok := props[m.Name].(map[string]interface{})
			switch {
			case !ok:
				why = append(why, fmt.Sprintf("union %d: member %s is not a property of this object", i+1, m.Name))
			case u.ZeroUnset(m.Name):
				if reason := noZero(p); reason != "" {
					why = append(why, fmt.Sprintf("union %d: zeroIsUnset: member %s %s", i+1, m.Name, reason))
				}
			}
		}
		if u.Discriminator == "" {
			continue
		}
		dp, ok := props[u.Discriminator].(map[string]interface{})
		switch {
		case !ok:
			why = append(why, fmt.Sprintf("union %d: the discriminator %s is not a property of this object", i+1, u.Discriminator))
		case dp["type"] != "string":
			why = append(why, fmt.Sprintf("union %d: the discriminator %s must be of type string", i+1, u.Discriminator))
		default:
			if f, ok := dp["format"].(string); ok && crd.TypedFormats[f].CELType != "" {
				why = append(why, fmt.Sprintf("union %d: the discriminator %s has format %s, which the apiserver's CEL reads as a %s, not as the string a member's value is compared with; remove the format", i+1, u.Discriminator, f, crd.TypedFormats[f].CELType))
			}
		}
	}
	if len(why) > 0 {
		return NewProblem(Invalid, "%s", strings.Join(why, "; ")), true
	}
	return Problem{}, false
}

// noZero says why the values of the schema p have no one zero value that
// zeroIsUnset could read as unset (semantics.md 11.2), or "": a string,
// a number, a boolean, a list and a map each have one ("", 0, false, [],
// {}); an object with properties is zero where each property is, as a Go
// struct, and int-or-string has two.
func noZero(p map[string]interface{}) string {
	format, _ := p["format"].(string)
	switch {
	case p["x-kubernetes-int-or-string"] == true:
		return "is an integer or a string, whose zero values are two (0 and \"\"): declare it without zeroIsUnset"
	case p["type"] == "object" && p["additionalProperties"] == nil:
		return "is an object that is not a map, which has no one zero value (a Go struct is zero where every field is): declare it without zeroIsUnset, or make the Go field a pointer"
	case p["type"] == "string" && crd.TypedFormats[format].CELType != "":
		return fmt.Sprintf("has format %s, which the apiserver's CEL reads as a %s, not as a string that could be \"\": declare it without zeroIsUnset", format, crd.TypedFormats[format].CELType)
	}
	switch p["type"] {
	case "string", "integer", "number", "boolean", "array", "object":
		return ""
	}
	return "has no type, so no zero value: declare it without zeroIsUnset"
}

// unionRules checks the unions of n on every value of n (semantics.md,
// Unions) with checks on n that read no old value, so that they run on
// create and, through the apiserver's ratcheting, on every update that
// changes n.
func (p *planner) unionRules(n *crd.Node, us []decl.Union) {
	for _, u := range us {
		members := make([]*crd.Node, len(u.Members))
		for i, m := range u.Members {
			members[i] = n.Prop(m.Name)
		}
		if u.Discriminator == "" {
			p.countRule(n, members, u)
		} else {
			p.discriminatedRules(n, u, members)
		}
	}
}

// countRule bounds the number of members set: at most one, or exactly
// one. A union of one member that may be unset checks nothing and has no
// rule.
func (p *planner) countRule(n *crd.Node, members []*crd.Node, u decl.Union) {
	names := memberNames(members)
	zero := u.ZeroIsUnset
	switch {
	case u.ExactlyOne && len(members) == 1:
		p.add(n, plan.Required{Property: members[0].Name(), ZeroIsUnset: u.ZeroUnset(members[0].Name())}, names+" must be set", reasonRequired, members[0])
	case u.ExactlyOne:
		p.add(n, plan.Count{Members: propertyNamesOf(members), ExactlyOne: true, ZeroIsUnset: zero}, "exactly one of "+names+" must be set", reasonRequired, n)
	case len(members) > 1:
		p.add(n, plan.Count{Members: propertyNamesOf(members), ZeroIsUnset: zero}, "at most one of "+names+" may be set", reasonForbidden, n)
	}
}

// discriminatedRules ties each member to the discriminator D, one rule
// per member so that each error names its field: a member may be set only
// when D selects it, which also allows at most one member, the values
// being distinct. With exactly one, the selected member must be set. A
// value of D that selects no member allows none (the KEP's "Nothing"),
// and so does an absent or null D, which reads as "" (semantics.md 11.3):
// D itself is not required.
func (p *planner) discriminatedRules(n *crd.Node, u decl.Union, members []*crd.Node) {
	dn := n.Prop(u.Discriminator)
	for i, m := range members {
		p.add(n, plan.SetOnlyWhen{Member: m.Name(), Discriminator: dn.Name(), Value: u.Members[i].Value, ZeroIsUnset: u.ZeroUnset(m.Name())},
			m.Name()+" may be set only when "+dn.Name()+" is "+u.Members[i].Value, reasonForbidden, m)
	}
	if !u.ExactlyOne {
		return
	}
	for i, m := range members {
		p.add(n, plan.RequiredWhen{Member: m.Name(), Discriminator: dn.Name(), Value: u.Members[i].Value, ZeroIsUnset: u.ZeroUnset(m.Name())},
			m.Name()+" must be set when "+dn.Name()+" is "+u.Members[i].Value, reasonRequired, m)
	}
}

// memberNames lists the members' property names for a message: "a, b".
func memberNames(members []*crd.Node) string {
	return strings.Join(propertyNamesOf(members), ", ")
}

// propertyNamesOf lists the property names of nodes.
func propertyNamesOf(nodes []*crd.Node) []string {
	names := make([]string, len(nodes))
	for i, m := range nodes {
		names[i] = m.Name()
	}
	return names
}

// unionCollections describes the lists and maps above the nodes of the
// unions among decls (plan.Collection), in the order of plan.Less, each
// once: how a back end that normalizes a union inside entries pairs
// them with old entries (semantics.md 11.7).
func unionCollections(root *crd.Node, decls []decl.Declaration) []plan.Collection {
	var out []plan.Collection
	seen := map[string]bool{}
	for _, d := range decls {
		if d.Ext != decl.ExtUnions {
			continue
		}
		for i, s := range d.Path {
			c := root.Find(d.Path[:i])
			if !s.Entries || c == nil || seen[c.Path.String()] {
				continue
			}
			seen[c.Path.String()] = true
			out = append(out, collectionOf(c))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return plan.Less(out[i].Node, out[j].Node) })
	return out
}

// collectionOf says how the entries of the list or map c pair with old
// ones: map values by key, list-map items by their keys, other items
// not at all.
func collectionOf(c *crd.Node) plan.Collection {
	switch {
	case c.IsMap():
		return plan.Collection{Node: c.Path, Pairing: plan.ByMapKey}
	case c.ListType() != "map":
		return plan.Collection{Node: c.Path, Pairing: plan.Unpaired}
	}
	out := plan.Collection{Node: c.Path, Pairing: plan.ByListMapKeys}
	for _, k := range c.ListMapKeys() {
		key := plan.ListMapKey{Name: k}
		if kn := c.Items.Prop(k); kn != nil {
			key.Type, key.Kept = kn.Schema.Type, kn.KeptPresent()
		}
		out.Keys = append(out.Keys, key)
	}
	return out
}
