package decl

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ExtUnions declares the unions of an object node (docs/semantics.md,
// "Unions"), in the shape of KEP-1027's x-kubernetes-unions with one key
// of mut2cel's, exactlyOne:
//
//	x-kubernetes-unions:
//	- discriminator: type
//	  fields-to-discriminateBy:
//	    requestRedirect: RequestRedirect
//	    urlRewrite: URLRewrite
//	  exactlyOne: true
const ExtUnions = "x-kubernetes-unions"

// The keys of one union entry.
const (
	unionDiscriminator = "discriminator"
	unionMembers       = "fields-to-discriminateBy"
	unionExactlyOne    = "exactlyOne"
)

// Union is one union of an object node: members, properties of the node
// of which at most one (or, with ExactlyOne, exactly one) may be set, and
// an optional discriminator, a string property of the node whose value
// selects the member that may be set.
type Union struct {
	// Discriminator is the property that selects a member; "" for none.
	Discriminator string
	// Members are sorted by name. Without a discriminator their values
	// are ignored and may be "".
	Members    []UnionMember
	ExactlyOne bool
}

// UnionMember is one member property and the discriminator value that
// selects it.
type UnionMember struct {
	Name, Value string
}

// MemberNames lists the members' property names, in order.
func (u Union) MemberNames() []string {
	names := make([]string, len(u.Members))
	for i, m := range u.Members {
		names[i] = m.Name
	}
	return names
}

// ParseUnions reads the decoded value of x-kubernetes-unions (YAML or
// JSON): a list of unions. It checks the shape only; Check says whether
// the unions are consistent in themselves.
func ParseUnions(v interface{}) ([]Union, error) {
	list, ok := v.([]interface{})
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("must be a list of unions, as in [{discriminator: type, %s: {a: A, b: B}}]", unionMembers)
	}
	out := make([]Union, 0, len(list))
	for i, entry := range list {
		u, err := parseUnion(entry)
		if err != nil {
			return nil, fmt.Errorf("union %d: %v", i+1, err)
		}
		out = append(out, u)
	}
	return out, nil
}

func parseUnion(v interface{}) (Union, error) {
	m, ok := v.(map[string]interface{})
	if !ok {
		return Union{}, fmt.Errorf("must be a map with %s, and optionally %s and %s", unionMembers, unionDiscriminator, unionExactlyOne)
	}
	var u Union
	for _, key := range slices.Sorted(maps.Keys(m)) {
		switch value := m[key]; key {
		case unionDiscriminator:
			s, ok := value.(string)
			if !ok || s == "" {
				return Union{}, fmt.Errorf("%s: must be the name of a string property", key)
			}
			u.Discriminator = s
		case unionExactlyOne:
			b, ok := value.(bool)
			if !ok {
				return Union{}, fmt.Errorf("%s: must be true or false", key)
			}
			u.ExactlyOne = b
		case unionMembers:
			members, ok := value.(map[string]interface{})
			if !ok {
				return Union{}, fmt.Errorf("%s: must be a map of member property -> discriminator value", key)
			}
			for _, name := range slices.Sorted(maps.Keys(members)) {
				value, ok := members[name].(string)
				if !ok && members[name] != nil {
					return Union{}, fmt.Errorf("%s: %s: the discriminator value must be a string", key, name)
				}
				u.Members = append(u.Members, UnionMember{Name: name, Value: value})
			}
		default:
			return Union{}, fmt.Errorf("unknown key %q: want %s, %s and %s", key, unionDiscriminator, unionMembers, unionExactlyOne)
		}
	}
	return u, nil
}

// CheckUnions says why unions declared on one node are not consistent in
// themselves, whatever the schema: a union without members, a member
// without a discriminator value or two members with one value where there
// is a discriminator, the discriminator a member, a member in two unions.
// Whether the names are properties of the node the compiler checks, where
// the schema is.
func CheckUnions(us []Union) error {
	inUnion := map[string]int{}
	for i, u := range us {
		if len(u.Members) == 0 {
			return fmt.Errorf("union %d: %s: at least one member is required", i+1, unionMembers)
		}
		byValue := map[string]string{}
		for _, m := range u.Members {
			if first, twice := inUnion[m.Name]; twice {
				return fmt.Errorf("union %d: %s is a member of union %d too: a property may be a member of one union only", i+1, m.Name, first+1)
			}
			inUnion[m.Name] = i
			if u.Discriminator == "" {
				continue
			}
			if m.Name == u.Discriminator {
				return fmt.Errorf("union %d: the discriminator %s cannot be a member too", i+1, m.Name)
			}
			if m.Value == "" {
				return fmt.Errorf("union %d: member %s has no discriminator value: give the value of %s that selects it", i+1, m.Name, u.Discriminator)
			}
			if other, dup := byValue[m.Value]; dup {
				return fmt.Errorf("union %d: members %s and %s have the same discriminator value %q: each value may select one member only", i+1, other, m.Name, m.Value)
			}
			byValue[m.Value] = m.Name
		}
	}
	return nil
}

// UnionsText gives unions in normalized text: a one-line YAML flow list
// (JSON), members sorted by name, keys in a fixed order, the value of a
// member left out where there is no discriminator and it is empty.
func UnionsText(us []Union) string {
	parts := make([]string, len(us))
	for i, u := range us {
		var fields []string
		if u.Discriminator != "" {
			fields = append(fields, JSONString(unionDiscriminator)+": "+JSONString(u.Discriminator))
		}
		members := make([]string, len(u.Members))
		for j, m := range u.Members {
			value := "null"
			if m.Value != "" || u.Discriminator != "" {
				value = JSONString(m.Value)
			}
			members[j] = JSONString(m.Name) + ": " + value
		}
		fields = append(fields, JSONString(unionMembers)+": {"+strings.Join(members, ", ")+"}")
		if u.ExactlyOne {
			fields = append(fields, JSONString(unionExactlyOne)+": true")
		}
		parts[i] = "{" + strings.Join(fields, ", ") + "}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ParseUnionsText reads the normalized text UnionsText writes.
func ParseUnionsText(s string) ([]Union, error) {
	var v interface{}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, fmt.Errorf("not a list of unions: %v", err)
	}
	return ParseUnions(v)
}

// unionsValue is the decoded value a schema holds for unions.
func unionsValue(us []Union) interface{} {
	list := make([]interface{}, len(us))
	for i, u := range us {
		members := map[string]interface{}{}
		for _, m := range u.Members {
			if m.Value == "" && u.Discriminator == "" {
				members[m.Name] = nil
				continue
			}
			members[m.Name] = m.Value
		}
		entry := map[string]interface{}{unionMembers: members}
		if u.Discriminator != "" {
			entry[unionDiscriminator] = u.Discriminator
		}
		if u.ExactlyOne {
			entry[unionExactlyOne] = true
		}
		list[i] = entry
	}
	return list
}

func readUnions(v interface{}) (string, error) {
	us, err := ParseUnions(v)
	if err != nil {
		return "", err
	}
	return UnionsText(us), nil
}

func checkUnions(s string) error {
	us, err := ParseUnionsText(s)
	if err != nil {
		return err
	}
	return CheckUnions(us)
}

// writeUnions writes the list of unions; text that does not parse, which
// no reader yields, is written as it is.
func writeUnions(s string) interface{} {
	us, err := ParseUnionsText(s)
	if err != nil {
		return s
	}
	return unionsValue(us)
}
