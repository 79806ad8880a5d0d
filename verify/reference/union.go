package reference

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// extUnions lists the unions of an object node in the KEP's shape
// (docs/semantics.md, "Unions"). The checker reads it on its own, apart
// from the translator's reading.
const extUnions = "x-kubernetes-unions"

// The keys of one union entry.
const (
	unionDiscriminator = "discriminator"
	unionMembers       = "fields-to-discriminateBy"
	unionExactlyOne    = "exactlyOne"
	unionZeroIsUnset   = "zeroIsUnset"
)

var unionKeys = []string{unionDiscriminator, unionExactlyOne, unionMembers, unionZeroIsUnset}

// union is one valid entry of x-kubernetes-unions.
type union struct {
	members       []unionMember // sorted by name
	discriminator string        // "" when the union has none
	exactlyOne    bool          // else at most one member may be present
	name          string        // Declaration.Value: names the union among those of its node
}

// unionMember is a property of the union's node and the discriminator
// value that selects it (ignored without a discriminator); zeroUnset says
// that it is unset also at the zero value of its type (zeroIsUnset).
type unionMember struct {
	name, value string
	zeroUnset   bool
}

// unionName renders a union as the value of its Declaration, such as
// "AtMostOne(a, b)" or "ExactlyOne(a, b; discriminator type)". No two
// unions of one node share a member, so the names of a node differ.
func unionName(u union) string {
	card := "AtMostOne"
	if u.exactlyOne {
		card = "ExactlyOne"
	}
	s := card + "(" + strings.Join(u.memberNames(), ", ")
	if u.discriminator != "" {
		s += "; discriminator " + u.discriminator
	}
	return s + ")"
}

func (u union) memberNames() []string {
	out := make([]string, len(u.members))
	for i, m := range u.members {
		out[i] = m.name
	}
	return out
}

// Union is one valid entry of x-kubernetes-unions as the checker reads
// it, for the pair generator, which shapes objects to it: a structural
// schema holds no unions.
type Union struct {
	Path          schemapath.Path // of the object node that declares it
	Discriminator string          // "" when the union has none
	Members       []UnionMember   // sorted by name
}

// UnionMember is a member of a Union and the discriminator value that
// selects it; ZeroIsUnset says that its zero value reads as unset.
type UnionMember struct {
	Name, Value string
	ZeroIsUnset bool
}

// Unions lists the valid unions of the schema, their nodes in the order
// of DeclaredPaths, the unions of a node in declared order.
func (c *Checker) Unions() []Union {
	var out []Union
	for _, path := range c.DeclaredPaths() {
		for _, u := range c.root.at(path).unions {
			e := Union{Path: path, Discriminator: u.discriminator}
			for _, m := range u.members {
				e.Members = append(e.Members, UnionMember{Name: m.name, Value: m.value, ZeroIsUnset: m.zeroUnset})
			}
			out = append(out, e)
		}
	}
	return out
}

// parseUnions reads x-kubernetes-unions of the node raw, records every
// rule it breaks and returns the valid unions. A union may stand on any
// object node with properties, the root included, except in the root's
// metadata and inside junctors; like the other declarations, a misplaced
// one is not also checked against its node.
func (p *parser) parseUnions(raw map[string]interface{}, path *field.Path, at where) []union {
	v, ok := raw[extUnions]
	if !ok {
		return nil
	}
	path = path.Child(extUnions)
	switch {
	case at.metadata:
		p.errs = append(p.errs, errInMetadata(path))
		return nil
	case at.junctor:
		p.errs = append(p.errs, errInJunctor(path))
		return nil
	case raw["type"] != "object" || isMapSchema(raw):
		p.errs = append(p.errs, errUnionOnNonObject(path))
		return nil
	}
	list, ok := v.([]interface{})
	if !ok || len(list) == 0 {
		p.errs = append(p.errs, errUnionsNotList(path, v))
		return nil
	}
	props, _ := raw["properties"].(map[string]interface{})
	var out []union
	owner := map[string]int{} // member -> index of its union
	for i, e := range list {
		u, ok := p.parseUnion(e, path.Index(i), props)
		if !ok {
			continue
		}
		shared := false
		for _, m := range u.members {
			if j, taken := owner[m.name]; taken {
				p.errs = append(p.errs, errSharedMember(path.Index(i).Child(unionMembers).Key(m.name), m.name, j))
				shared = true
				continue
			}
			owner[m.name] = i
		}
		if !shared {
			out = append(out, u)
		}
	}
	return out
}

// parseUnion reads one entry; ok is false when it breaks a rule.
func (p *parser) parseUnion(e interface{}, path *field.Path, props map[string]interface{}) (union, bool) {
	entry, ok := e.(map[string]interface{})
	if !ok {
		p.errs = append(p.errs, errUnionNotObject(path, e))
		return union{}, false
	}
	before := len(p.errs)
	for _, k := range slices.Sorted(maps.Keys(entry)) {
		if !contains(unionKeys, k) {
			p.errs = append(p.errs, errUnionKey(path.Child(k), k))
		}
	}
	var u union
	if x, present := entry[unionExactlyOne]; present {
		b, isBool := x.(bool)
		if !isBool {
			p.errs = append(p.errs, errExactlyOneNotBool(path.Child(unionExactlyOne), x))
		}
		u.exactlyOne = b
	}
	if d, present := entry[unionDiscriminator]; present {
		u.discriminator = p.discriminator(d, path.Child(unionDiscriminator), props)
	}
	u.members = p.members(entry[unionMembers], path.Child(unionMembers), props, u.discriminator)
	if z, present := entry[unionZeroIsUnset]; present {
		p.zeroIsUnset(z, path.Child(unionZeroIsUnset), props, u.members)
	}
	if len(p.errs) > before {
		return union{}, false
	}
	u.name = unionName(u)
	return u, true
}

// discriminator checks that d names a string property of the node; it
// returns the name even when it breaks a rule, so that members are not
// also blamed for it.
func (p *parser) discriminator(d interface{}, path *field.Path, props map[string]interface{}) string {
	name, ok := d.(string)
	if !ok || name == "" {
		p.errs = append(p.errs, errDiscriminatorName(path, d))
		return ""
	}
	prop, found := props[name].(map[string]interface{})
	switch {
	case !found:
		p.errs = append(p.errs, errNotAProperty(path, name))
	case prop["type"] != "string":
		p.errs = append(p.errs, errDiscriminatorNotString(path, name))
	}
	return name
}

// members reads fields-to-discriminateBy: at least one member, each a
// property of the node other than the discriminator; with a discriminator,
// each with a string value of its own.
func (p *parser) members(v interface{}, path *field.Path, props map[string]interface{}, disc string) []unionMember {
	m, ok := v.(map[string]interface{})
	if !ok || len(m) == 0 {
		p.errs = append(p.errs, errNoMembers(path, v))
		return nil
	}
	var out []unionMember
	byValue := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		at := path.Key(name)
		if _, found := props[name].(map[string]interface{}); !found {
			p.errs = append(p.errs, errNotAProperty(at, name))
		}
		if name == disc {
			p.errs = append(p.errs, errDiscriminatorIsMember(at, name))
		}
		member := unionMember{name: name}
		if disc != "" {
			value, isString := m[name].(string)
			switch {
			case !isString || value == "":
				// "" is what an absent discriminator reads as
				// (semantics.md 11.3): it selects nothing.
				p.errs = append(p.errs, errMemberValue(at, m[name]))
			case byValue[value] != "":
				p.errs = append(p.errs, errMemberValueTaken(at, value, byValue[value]))
			default:
				byValue[value] = name
			}
			member.value = value
		}
		out = append(out, member)
	}
	return out
}

// zeroIsUnset reads the members whose zero value reads as unset: a list
// of members, each of a type with one zero value (semantics.md 11.2): a
// string the apiserver's CEL reads as a string, a number, a boolean, a
// list or a map. It marks them in members.
func (p *parser) zeroIsUnset(v interface{}, path *field.Path, props map[string]interface{}, members []unionMember) {
	list, ok := v.([]interface{})
	if !ok {
		p.errs = append(p.errs, errZeroIsUnsetNotList(path, v))
		return
	}
	for i, e := range list {
		name, _ := e.(string)
		j := slices.IndexFunc(members, func(m unionMember) bool { return m.name == name })
		prop, _ := props[name].(map[string]interface{})
		switch {
		case j < 0:
			p.errs = append(p.errs, errZeroIsUnsetNotMember(path.Index(i), e))
		case !hasOneZero(prop):
			p.errs = append(p.errs, errZeroIsUnsetNoZero(path.Index(i), name))
		default:
			members[j].zeroUnset = true
		}
	}
}

// hasOneZero: the values of the schema prop have one zero value.
func hasOneZero(prop map[string]interface{}) bool {
	switch prop["type"] {
	case "string":
		f, _ := prop["format"].(string)
		return prop["x-kubernetes-int-or-string"] != true && f != "date" && f != "date-time" && f != "duration" && f != "byte"
	case "integer", "number", "boolean", "array":
		return prop["x-kubernetes-int-or-string"] != true
	case "object":
		_, isMap := prop["additionalProperties"].(map[string]interface{})
		return isMap
	}
	return false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
