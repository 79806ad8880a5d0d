package policy

import (
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
func (w *walker) unchanged(s *schema.Structural, x, y string) string {
	body := w.unchangedValue(s, x, y)
	if s.Nullable {
		return "(type(" + x + ") == null_type || type(" + y + ") == null_type ? type(" + x + ") == type(" + y + ") : " + body + ")"
	}
	return body
}

func (w *walker) unchangedValue(s *schema.Structural, x, y string) string {
	switch {
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
		k := w.newVar("k")
		return "(size(" + x + ") == size(" + y + ") && " + y + ".all(" + k + ", " + k + " in " + x + " && " + w.unchanged(s.AdditionalProperties.Structural, x+"["+k+"]", y+"["+k+"]") + "))"
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
			k := w.newVar("k")
			quoted := make([]string, len(names))
			for i, name := range names {
				quoted[i] = celString(name)
			}
			terms = append(terms, y+".all("+k+", "+k+" in ["+strings.Join(quoted, ", ")+"] && "+k+" in "+x+")")
			for _, name := range names {
				p := s.Properties[name]
				terms = append(terms, "(!("+celString(name)+" in "+y+") || "+w.unchanged(&p, prop(x, name), prop(y, name))+")")
			}
		}
		return "(" + strings.Join(terms, " && ") + ")"
	case s.Type == "array" && listType(s) == "map" && s.Items != nil:
		e, f := w.newVar("e"), w.newVar("f")
		return "(size(" + x + ") == size(" + y + ") && " + y + ".all(" + e + ", " + x + ".exists(" + f + ", " + keysEqual(s, e, f) + " && " + w.unchanged(s.Items, f, e) + ")))"
	case s.Type == "array":
		// Other lists are compared as a whole, as stored.
		return w.strictEqual(s, x, y)
	case numeric(s):
		return "(" + x + " == " + y + " && type(" + x + ") == type(" + y + "))"
	}
	return "(" + x + " == " + y + ")"
}

// strictEqual renders "x and y are the same stored value", reflect's
// DeepEqual of their JSON: CEL's == on the plain values, and where s may
// hold numbers, the same type for each, which == does not compare.
func (w *walker) strictEqual(s *schema.Structural, x, y string) string {
	if types := w.sameTypes(s, x, y); types != "" {
		return "(" + x + " == " + y + " && " + types + ")"
	}
	return "(" + x + " == " + y + ")"
}

// sameTypes renders "the numbers in x and y, values of s equal by ==, have
// the same types", or "" where s holds no number.
func (w *walker) sameTypes(s *schema.Structural, x, y string) string {
	if s == nil || plainEqual(s) {
		return ""
	}
	var body string
	switch {
	case numeric(s):
		return "type(" + x + ") == type(" + y + ")"
	case s.XPreserveUnknownFields || s.XEmbeddedResource || (s.AdditionalProperties != nil && s.AdditionalProperties.Structural == nil):
		w.fail("the fields the schema does not describe may hold numbers, whose resending as 1.0 for a stored 1 the apiserver's ratcheting sees and no policy can")
		return "false"
	case s.Type == "object" && s.AdditionalProperties != nil:
		k := w.newVar("k")
		body = x + ".all(" + k + ", " + w.sameTypes(s.AdditionalProperties.Structural, x+"["+k+"]", y+"["+k+"]") + ")"
	case s.Type == "object":
		var terms []string
		for _, name := range sortedNames(s) {
			p := s.Properties[name]
			if t := w.sameTypes(&p, prop(x, name), prop(y, name)); t != "" {
				terms = append(terms, "(!("+celString(name)+" in "+x+") || "+t+")")
			}
		}
		body = strings.Join(terms, " && ")
	case s.Type == "array" && s.Items != nil:
		if !w.twoVar {
			// No index to pair the items by: compare the lists of the
			// items' number types.
			return w.numberTypes(s, x) + " == " + w.numberTypes(s, y)
		}
		i, a := w.newVar("i"), w.newVar("a")
		body = x + ".all(" + i + ", " + a + ", " + w.sameTypes(s.Items, a, y+"["+i+"]") + ")"
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
func (w *walker) numberTypes(s *schema.Structural, v string) string {
	switch {
	case plainEqual(s):
		return "[]"
	case numeric(s):
		return "type(" + v + ")"
	case s.Type == "array" && s.Items != nil:
		e := w.newVar("t")
		return v + ".map(" + e + ", " + w.numberTypes(s.Items, e) + ")"
	case s.Type == "object" && s.AdditionalProperties == nil && !s.XPreserveUnknownFields && !s.XEmbeddedResource:
		var parts []string
		for _, name := range sortedNames(s) {
			p := s.Properties[name]
			if plainEqual(&p) {
				continue
			}
			parts = append(parts, "dyn("+celString(name)+" in "+v+" ? dyn("+w.numberTypes(&p, prop(v, name))+") : dyn(null_type))")
		}
		list := "[" + strings.Join(parts, ", ") + "]"
		if s.Nullable {
			list = "(type(" + v + ") == null_type ? [] : " + list + ")"
		}
		return list
	}
	w.fail("telling a number resent as 1.0 from the stored 1 inside a map or unknown fields inside a list, as the apiserver's ratcheting does, needs two-variable comprehensions (Kubernetes 1.33)")
	return "[]"
}

func sortedNames(s *schema.Structural) []string {
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
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
	for _, p := range s.Properties {
		if !plainEqual(&p) {
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
