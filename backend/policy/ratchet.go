package policy

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// The test a union's validation makes before it checks a node on update:
// whether the apiserver's validation ratcheting would take the node for
// unchanged and drop the errors of rules without oldSelf there
// (semantics.md 11.4 and 12).

// unchanged renders the apiserver's test of a node unchanged by an
// update, which its validation ratcheting applies
// (CorrelatedObject.CachedDeepEqual): values compared as stored, so that a
// number resent as 1.0 for a stored 1 is a change; objects key by key,
// where a key the schema does not describe (an unknown field, the root's
// metadata beyond what the schema names) makes the object changed; maps
// key by key; list-map items by key in any order; other lists item by
// item in order. CEL's == takes 1.0 for 1, so numbers also compare their
// types; inside the items of atomic and set lists, == stands for the
// item-wise comparison (a number resent as 1.0 inside such a list is the
// one change it misses).
func (p *printer) unchanged(s *schema.Structural, x, y string) string {
	body := p.unchangedValue(s, x, y)
	if s.Nullable {
		return "(type(" + x + ") == null_type || type(" + y + ") == null_type ? type(" + x + ") == type(" + y + ") : " + body + ")"
	}
	return body
}

func (p *printer) unchangedValue(s *schema.Structural, x, y string) string {
	switch {
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
		k := p.newVar("k")
		return "(size(" + x + ") == size(" + y + ") && " + y + ".all(" + k + ", " + k + " in " + x + " && " + p.unchanged(s.AdditionalProperties.Structural, x+"["+k+"]", y+"["+k+"]") + "))"
	case s.Type == "object":
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		terms := []string{"size(" + x + ") == size(" + y + ")"}
		if len(names) == 0 {
			terms = append(terms, "size("+y+") == 0")
		} else {
			k := p.newVar("k")
			quoted := make([]string, len(names))
			for i, name := range names {
				quoted[i] = celString(name)
			}
			terms = append(terms, y+".all("+k+", "+k+" in ["+strings.Join(quoted, ", ")+"] && "+k+" in "+x+")")
			for _, name := range names {
				ps := s.Properties[name]
				terms = append(terms, "(!("+celString(name)+" in "+y+") || "+p.unchanged(&ps, prop(x, name), prop(y, name))+")")
			}
		}
		return "(" + strings.Join(terms, " && ") + ")"
	case s.Type == "array" && listType(s) == "map" && s.Items != nil:
		e, f := p.newVar("e"), p.newVar("f")
		return "(size(" + x + ") == size(" + y + ") && " + y + ".all(" + e + ", " + x + ".exists(" + f + ", " + structKeysEqual(s, e, f) + " && " + p.unchanged(s.Items, f, e) + ")))"
	case s.Type == "array":
		// Other lists are compared as a whole, as stored.
		return p.strictEqual(s, x, y)
	case numeric(s):
		return "(" + x + " == " + y + " && type(" + x + ") == type(" + y + "))"
	}
	return "(" + x + " == " + y + ")"
}

// strictEqual renders "x and y are the same stored value", reflect's
// DeepEqual of their JSON: CEL's == on the plain values, and where s may
// hold numbers, the same type for each, which == does not compare.
func (p *printer) strictEqual(s *schema.Structural, x, y string) string {
	if types := p.sameTypes(s, x, y); types != "" {
		return "(" + x + " == " + y + " && " + types + ")"
	}
	return "(" + x + " == " + y + ")"
}

// sameTypes renders "the numbers in x and y, values of s equal by ==, have
// the same types", or "" where s holds no number.
func (p *printer) sameTypes(s *schema.Structural, x, y string) string {
	if s == nil || plainEqual(s) {
		return ""
	}
	var body string
	switch {
	case numeric(s):
		return "type(" + x + ") == type(" + y + ")"
	case s.XPreserveUnknownFields || s.XEmbeddedResource || (s.AdditionalProperties != nil && s.AdditionalProperties.Structural == nil):
		p.fail("%s", "the fields the schema does not describe may hold numbers, whose resending as 1.0 for a stored 1 the apiserver's ratcheting sees and no policy can")
		return "false"
	case s.Type == "object" && s.AdditionalProperties != nil:
		k := p.newVar("k")
		body = x + ".all(" + k + ", " + p.sameTypes(s.AdditionalProperties.Structural, x+"["+k+"]", y+"["+k+"]") + ")"
	case s.Type == "object":
		var terms []string
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			ps := s.Properties[name]
			if t := p.sameTypes(&ps, prop(x, name), prop(y, name)); t != "" {
				terms = append(terms, "(!("+celString(name)+" in "+x+") || "+t+")")
			}
		}
		body = strings.Join(terms, " && ")
	case s.Type == "array" && s.Items != nil:
		if !p.twoVar {
			// No index to pair the items by: compare the lists of the
			// items' number types.
			return p.numberTypes(s, x) + " == " + p.numberTypes(s, y)
		}
		i, a := p.newVar("i"), p.newVar("a")
		body = x + ".all(" + i + ", " + a + ", " + p.sameTypes(s.Items, a, y+"["+i+"]") + ")"
	default:
		return ""
	}
	if s.Nullable {
		return "(type(" + x + ") == null_type || " + body + ")"
	}
	return body
}

// numberTypes renders a value listing the types of the numbers in v, a
// value of s, in a fixed order: two values equal by == are the same
// stored value when these are equal too. Maps have no fixed order in CEL,
// so numbers inside a map inside a list cannot be listed.
func (p *printer) numberTypes(s *schema.Structural, v string) string {
	switch {
	case plainEqual(s):
		return "[]"
	case numeric(s):
		return "type(" + v + ")"
	case s.Type == "array" && s.Items != nil:
		e := p.newVar("t")
		return v + ".map(" + e + ", " + p.numberTypes(s.Items, e) + ")"
	case s.Type == "object" && s.AdditionalProperties == nil && !s.XPreserveUnknownFields && !s.XEmbeddedResource:
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			ps := s.Properties[name]
			if plainEqual(&ps) {
				continue
			}
			parts = append(parts, "dyn("+celString(name)+" in "+v+" ? dyn("+p.numberTypes(&ps, prop(v, name))+") : dyn(null_type))")
		}
		list := "[" + strings.Join(parts, ", ") + "]"
		if s.Nullable {
			list = "(type(" + v + ") == null_type ? [] : " + list + ")"
		}
		return list
	}
	p.fail("%s", "telling a number resent as 1.0 from the stored 1 inside a map or unknown fields inside a list, as the apiserver's ratcheting does, needs two-variable comprehensions (Kubernetes 1.33)")
	return "[]"
}

// plainEqual reports whether CEL's == on values of s is the apiserver's
// comparison of stored values: no number inside, where == takes 1.0 for
// 1, and no object whose keys the schema does not all describe.
func plainEqual(s *schema.Structural) bool {
	if s == nil {
		return true
	}
	if numeric(s) || s.XPreserveUnknownFields || s.XEmbeddedResource {
		return false
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural == nil && s.AdditionalProperties.Bool {
		return false
	}
	for _, ps := range s.Properties {
		if !plainEqual(&ps) {
			return false
		}
	}
	if s.AdditionalProperties != nil && !plainEqual(s.AdditionalProperties.Structural) {
		return false
	}
	return plainEqual(s.Items)
}

// numeric reports whether values of s may be numbers, which CEL's ==
// compares by value whatever their JSON type.
func numeric(s *schema.Structural) bool {
	return s.Type == "number" || s.Type == "integer" || s.XIntOrString || s.Type == ""
}

// structKeysEqual renders "the items a and b of the list map s have the
// same keys", a key absent from an item compared as null.
func structKeysEqual(s *schema.Structural, a, b string) string {
	var terms []string
	for _, k := range s.XListMapKeys {
		terms = append(terms, valueOrNull(a, []string{k})+" == "+valueOrNull(b, []string{k}))
	}
	return strings.Join(terms, " && ")
}

func listType(s *schema.Structural) string {
	if s.XListType == nil {
		return "atomic"
	}
	return *s.XListType
}
