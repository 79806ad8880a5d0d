package markers

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/decl"
)

// unionBuilt is one union of a struct, with where each part was written.
type unionBuilt struct {
	u decl.Union
	// from is the marker that makes the union (for its errors when no
	// member has a line of its own); discriminator the discriminator's.
	from, discriminator decl.Source
	// members are at their markers' lines, by name.
	members map[string]decl.Source
	// oneOf is set for controller-gen's ExactlyOneOf and AtMostOneOf,
	// whose rules are replaced (ControllerGenRules).
	oneOf []string
}

func (b *unionBuilt) add(name, value string, at decl.Source) {
	b.u.Members = append(b.u.Members, decl.UnionMember{Name: name, Value: value})
	b.members[name] = at
}

// unions gives the unions the markers of s declare. Each is read in the
// one model whichever markers wrote it: the KEP's +union and
// +unionDeprecated are at most one, validation-gen's +k8s:unionMember
// exactly one and +k8s:zeroOrOneOfMember at most one; a member's
// discriminator value is its memberName or else its Go field name (the
// KEP's and validation-gen's rule); without a discriminator the values
// mean nothing and are left empty, as every front end leaves them.
func (s *unionStruct) unions() ([]*unionBuilt, decl.Errors) {
	var out []*unionBuilt
	var errs decl.Errors
	kep, e := s.kepUnion()
	errs = append(errs, e...)
	if kep != nil {
		out = append(out, kep)
	}
	k8s, e := s.k8sUnions()
	errs = append(errs, e...)
	out = append(out, k8s...)
	for _, t := range s.tags {
		if t.name != tagExactlyOneOf && t.name != tagAtMostOneOf {
			continue
		}
		b := &unionBuilt{from: t.source, members: map[string]decl.Source{}, oneOf: t.fields}
		b.u.ExactlyOne = t.name == tagExactlyOneOf
		for _, f := range t.fields {
			if _, twice := b.members[f]; twice {
				errs = append(errs, &decl.Error{Source: t.source, Detail: fmt.Sprintf("+%s: %s is named twice", t.name, f)})
				continue
			}
			b.add(f, "", t.source)
		}
		out = append(out, b)
	}
	return out, errs
}

// kepUnion reads the KEP's markers: +union makes every field but the
// discriminator a member, +unionDeprecated makes the marked fields the
// members of the struct's one union.
func (s *unionStruct) kepUnion() (*unionBuilt, decl.Errors) {
	var errs decl.Errors
	b := &unionBuilt{members: map[string]decl.Source{}}
	whole := false
	for _, t := range s.tags {
		if t.name == tagUnion {
			whole, b.from = true, t.source
		}
	}
	var disc *unionField
	for i, f := range s.fields {
		for _, t := range f.tags {
			switch t.name {
			case tagUnionDiscriminator:
				if disc != nil {
					errs = append(errs, &decl.Error{Source: t.source, Detail: fmt.Sprintf("+%s: %s is the discriminator already: a struct has one", t.name, disc.goName)})
					continue
				}
				disc, b.discriminator = &s.fields[i], t.source
			case tagUnionDeprecated:
				if !whole {
					b.add(f.json, f.goName, t.source)
					if b.from == (decl.Source{}) {
						b.from = t.source
					}
				}
			}
		}
	}
	if whole {
		for _, f := range s.fields {
			if f.json != "" && (disc == nil || f.goName != disc.goName) {
				b.add(f.json, f.goName, b.from)
			}
		}
	}
	if len(b.u.Members) == 0 {
		if disc != nil {
			errs = append(errs, &decl.Error{Source: b.discriminator, Detail: "+" + tagUnionDiscriminator + ": no union to discriminate: mark the struct +union, or its members +unionDeprecated"})
		}
		return nil, errs
	}
	if disc != nil {
		b.u.Discriminator = disc.json
	}
	return b, errs
}

// k8sUnions reads validation-gen's tags: one union per kind of member tag
// and union: argument.
func (s *unionStruct) k8sUnions() ([]*unionBuilt, decl.Errors) {
	var errs decl.Errors
	byKey := map[string]*unionBuilt{}
	var keys []string
	discs := map[string]decl.Source{}
	discName := map[string]string{}
	for _, f := range s.fields {
		for _, t := range f.tags {
			switch t.name {
			case tagK8sMember, tagK8sZeroOrOne:
				key := t.name + "\x00" + t.union
				b, ok := byKey[key]
				if !ok {
					b = &unionBuilt{from: t.source, members: map[string]decl.Source{}}
					b.u.ExactlyOne = t.name == tagK8sMember
					byKey[key] = b
					keys = append(keys, key)
				}
				value := f.goName
				if t.member != "" {
					value = t.member
				}
				if !f.pointer {
					b.u.ZeroIsUnset = append(b.u.ZeroIsUnset, f.json)
				}
				b.add(f.json, value, t.source)
			case tagK8sDiscriminator:
				if first, twice := discs[t.union]; twice {
					errs = append(errs, &decl.Error{Source: t.source, Detail: fmt.Sprintf("+%s: union %q has a discriminator already, at %s", t.name, t.union, first)})
					continue
				}
				discs[t.union], discName[t.union] = t.source, f.json
			}
		}
	}
	var out []*unionBuilt
	for _, key := range keys {
		b := byKey[key]
		tag, union, _ := strings.Cut(key, "\x00")
		if at, ok := discs[union]; ok && tag == tagK8sMember {
			b.u.Discriminator, b.discriminator = discName[union], at
			delete(discs, union)
		}
		out = append(out, b)
	}
	for union, at := range discs {
		errs = append(errs, &decl.Error{Source: at, Detail: fmt.Sprintf("+%s: no +%s of union %q to discriminate (+%s has no discriminator)", tagK8sDiscriminator, tagK8sMember, union, tagK8sZeroOrOne)})
	}
	return out, errs
}

// checkOn checks the unions of one struct against the schema node the
// struct lands on, and gives them in the model's order (members by name,
// unions by their first member), or the problems at the markers' lines.
func checkOn(built []*unionBuilt, node *apiextensionsv1.JSONSchemaProps) ([]decl.Union, decl.Errors) {
	var errs decl.Errors
	memberOf := map[string]decl.Source{}
	var out []decl.Union
	for _, b := range built {
		u := b.u
		u.Members = slices.Clone(b.u.Members) // built serves every node the struct lands on
		u.ZeroIsUnset = slices.Sorted(slices.Values(b.u.ZeroIsUnset))
		if u.Discriminator != "" {
			errs = append(errs, checkDiscriminator(u.Discriminator, node, b.discriminator)...)
		}
		byValue := map[string]string{}
		for _, m := range u.Members {
			at := b.members[m.Name]
			if m.Name == "" {
				errs = append(errs, &decl.Error{Source: at, Detail: `a field left out of the schema (json:"-") cannot be a union member`})
				continue
			}
			if why := memberProblem(u, m.Name, node); why != "" {
				errs = append(errs, &decl.Error{Source: at, Detail: why})
			}
			if first, twice := memberOf[m.Name]; twice {
				errs = append(errs, &decl.Error{Source: at, Detail: fmt.Sprintf("%s is a member of the union at %s too: a field may be a member of one union only", m.Name, first)})
			}
			memberOf[m.Name] = at
			if u.Discriminator == "" {
				continue
			}
			if other, dup := byValue[m.Value]; dup {
				errs = append(errs, &decl.Error{Source: at, Detail: fmt.Sprintf("members %s and %s have the same discriminator value %q: each value selects one member (memberName: sets it)", other, m.Name, m.Value)})
			}
			byValue[m.Value] = m.Name
		}
		if u.Discriminator == "" {
			for i := range u.Members {
				u.Members[i].Value = ""
			}
		}
		sort.Slice(u.Members, func(i, j int) bool { return u.Members[i].Name < u.Members[j].Name })
		out = append(out, u)
	}
	sortUnions(out)
	return out, errs
}

// memberProblem says why the member name of u cannot stand on node, or "".
func memberProblem(u decl.Union, name string, node *apiextensionsv1.JSONSchemaProps) string {
	p, ok := node.Properties[name]
	switch {
	case !ok:
		return fmt.Sprintf("union member %s: not a property of the struct's schema", name)
	case slices.Contains(node.Required, name):
		return fmt.Sprintf("union member %s is a required field: a member must be optional (+optional or omitempty), or it would always be set", name)
	case u.ZeroUnset(name):
		if why := valueMemberZero(p); why != "" {
			return fmt.Sprintf("union member %s is not a pointer, so validation-gen reads it as set where it is not its zero value; but %s: make the field a pointer", name, why)
		}
	case name == u.Discriminator:
		return fmt.Sprintf("%s is the discriminator and cannot be a member too", name)
	}
	return ""
}

// checkDiscriminator refuses a discriminator no rule can compare with a
// string: not a string, or a format the apiserver's CEL reads as another
// type (docs/semantics.md 8).
func checkDiscriminator(name string, node *apiextensionsv1.JSONSchemaProps, at decl.Source) decl.Errors {
	p, ok := node.Properties[name]
	switch {
	case !ok:
		if name == "" {
			return decl.Errors{&decl.Error{Source: at, Detail: `a field left out of the schema (json:"-") cannot be the discriminator`}}
		}
		return decl.Errors{&decl.Error{Source: at, Detail: fmt.Sprintf("the discriminator %s: not a property of the struct's schema", name)}}
	case p.Type != "string":
		return decl.Errors{&decl.Error{Source: at, Detail: fmt.Sprintf("the discriminator %s must be a string, not %s", name, orAny(p.Type))}}
	case slices.Contains([]string{"date", "date-time", "duration", "byte"}, p.Format):
		return decl.Errors{&decl.Error{Source: at, Detail: fmt.Sprintf("the discriminator %s has format %s, which CEL reads as another type than string: drop the format", name, p.Format)}}
	}
	return nil
}

func sortUnions(us []decl.Union) {
	sort.SliceStable(us, func(i, j int) bool { return us[i].Members[0].Name < us[j].Members[0].Name })
}

func orAny(t string) string {
	if t == "" {
		return "untyped"
	}
	return t
}
