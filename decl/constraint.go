package decl

import (
	"fmt"
	"strings"
)

// Constraint is one of Kubernetes' update constraints
// (k8s.io/apimachinery/pkg/api/validate, UpdateConstraint), as
// docs/semantics.md section 9 defines them for CRDs.
type Constraint uint8

// The five constraints. Constraints is a set of them.
const (
	NoSet Constraint = 1 << iota
	NoUnset
	NoModify
	NoAddItem
	NoRemoveItem
)

// Constraints is a set of constraints.
type Constraints uint8

// Names are the constraints in canonical order, with their spellings.
var Names = []struct {
	C    Constraint
	Name string
}{
	{NoSet, "NoSet"},
	{NoUnset, "NoUnset"},
	{NoModify, "NoModify"},
	{NoAddItem, "NoAddItem"},
	{NoRemoveItem, "NoRemoveItem"},
}

// The extension keys a schema node may carry.
const (
	ExtMutability    = "x-kubernetes-mutability"
	ExtKeyMutability = "x-kubernetes-key-mutability"
	ExtUpdate        = "x-kubernetes-update"
)

// The KEP values of x-kubernetes-mutability and x-kubernetes-key-mutability.
const (
	Immutable  = "Immutable"
	AddOnly    = "AddOnly"
	RemoveOnly = "RemoveOnly"
)

// Field constraints speak of a node as one value; key constraints of the
// keys of a list or map.
const (
	FieldConstraints = Constraints(NoSet) | Constraints(NoUnset) | Constraints(NoModify)
	KeyConstraints   = Constraints(NoAddItem) | Constraints(NoRemoveItem)
	Presence         = Constraints(NoSet) | Constraints(NoUnset)
)

// Has reports whether c holds k.
func (c Constraints) Has(k Constraint) bool { return c&Constraints(k) != 0 }

// Of makes a set.
func Of(cs ...Constraint) Constraints {
	var out Constraints
	for _, k := range cs {
		out |= Constraints(k)
	}
	return out
}

func (c Constraint) String() string {
	for _, n := range Names {
		if n.C == c {
			return n.Name
		}
	}
	return fmt.Sprintf("Constraint(%d)", uint8(c))
}

// List names the constraints of c in canonical order.
func (c Constraints) List() []string {
	var out []string
	for _, n := range Names {
		if c.Has(n.C) {
			out = append(out, n.Name)
		}
	}
	return out
}

// String renders c as the flow list the annotation and files write:
// [NoUnset, NoModify].
func (c Constraints) String() string { return "[" + strings.Join(c.List(), ", ") + "]" }

// ParseUpdate reads the value of x-kubernetes-update as decoded from YAML
// or JSON: a non-empty list of distinct constraint names.
func ParseUpdate(v interface{}) (Constraints, error) {
	list, ok := v.([]interface{})
	if !ok {
		if s, isString := v.([]string); isString {
			list = make([]interface{}, len(s))
			for i := range s {
				list[i] = s[i]
			}
		} else {
			return 0, fmt.Errorf("must be a list of constraints, as in [NoUnset, NoModify], not %s", describe(v))
		}
	}
	if len(list) == 0 {
		return 0, fmt.Errorf("must name at least one constraint of %s", strings.Join(allNames(), ", "))
	}
	var out Constraints
	for _, item := range list {
		name, _ := item.(string)
		k, ok := constraintNamed(name)
		if !ok {
			return 0, fmt.Errorf("unknown constraint %s: supported: %s", describe(item), strings.Join(allNames(), ", "))
		}
		if out.Has(k) {
			return 0, fmt.Errorf("constraint %s listed twice", name)
		}
		out |= Constraints(k)
	}
	return out, nil
}

func constraintNamed(s string) (Constraint, bool) {
	for _, n := range Names {
		if n.Name == s {
			return n.C, true
		}
	}
	return 0, false
}

func allNames() []string {
	out := make([]string, len(Names))
	for i, n := range Names {
		out[i] = n.Name
	}
	return out
}

func describe(v interface{}) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%v", v)
}

// Value reads the value of one of Extensions as decoded from YAML or JSON
// and gives it in the form the mut2cel.io/declarations annotation keeps
// (Kind.Read): a KEP value as the string written (the schema reader checks
// it where it stands, with its path), the update constraints in canonical
// order (Constraints.String).
func Value(ext string, v interface{}) (string, error) {
	k, ok := KindNamed(ext)
	if !ok {
		return "", fmt.Errorf("unknown key %s: only %s can be declared", UnknownKey(ext), KindNames(", ", " and "))
	}
	s, err := k.Read(v)
	if err != nil {
		return "", fmt.Errorf("%s: %v", ext, err)
	}
	return s, nil
}

// KEP gives the constraints a KEP value means on a node (semantics.md
// 9.2): on the node itself, and on the collection above it when the node
// is an items or additionalProperties schema. ok is false for a value
// that is not one of the three.
func KEP(ext, value string, entry bool) (self, collection Constraints, ok bool) {
	var presence, keys Constraints
	switch value {
	case Immutable:
		presence, keys = Presence, KeyConstraints
	case AddOnly:
		presence, keys = Of(NoUnset), Of(NoRemoveItem)
	case RemoveOnly:
		presence, keys = Of(NoSet), Of(NoAddItem)
	default:
		return 0, 0, false
	}
	switch {
	case ext == ExtKeyMutability:
		return keys, 0, true
	case entry && value == Immutable:
		return Of(NoModify), 0, true
	case entry:
		return Of(NoModify), keys, true
	}
	return presence | Of(NoModify), 0, true
}
