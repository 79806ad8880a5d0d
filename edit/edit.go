package edit

import "unicode/utf8"

// ValidationsKey is the schema extension that holds CEL rules.
const ValidationsKey = "x-kubernetes-validations"

// Edit is a change to one mapping of a CRD document: a schema node, or
// metadata.annotations. Path leads from the document root to the mapping,
// with string keys for mapping keys and int for sequence indices, e.g.
// ["spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec"].
//
// The parts apply in this order: Create, Remove, RemoveRules, Set, AddRules.
type Edit struct {
	Path []interface{}
	// Create makes an empty mapping at Path when the last step of Path is
	// a key that is absent or null in its parent mapping (which must
	// exist). Only the last step is created; without Create a missing
	// node is an error.
	Create bool
	// Remove lists keys to delete from the node, in this order. Each must
	// be there.
	Remove []string
	// RemoveRules deletes the entries of the node's x-kubernetes-validations
	// list that equal one of these rules (same keys, same values); each
	// must match an entry. A list left empty, with no AddRules, is removed
	// with its key.
	RemoveRules []Rule
	// Set sets scalar keys of the node: added when absent, replaced when
	// present.
	Set []Setting
	// AddRules are appended to the node's x-kubernetes-validations list,
	// which is created (as the last key of the node) when absent or null.
	AddRules []Rule
}

// Setting is one key of an Edit's Set. Value is a scalar: int64, string or
// bool.
type Setting struct {
	Key   string
	Value interface{}
}

// Rule is one x-kubernetes-validations entry with string fields only: the
// entries mut2cel writes and removes.
type Rule struct {
	Rule      string `json:"rule"`
	Message   string `json:"message,omitempty"`
	Reason    string `json:"reason,omitempty"`
	FieldPath string `json:"fieldPath,omitempty"`
}

// Fields lists the keys of the rule as they are written, with their
// values, in the order controller-gen writes them (sorted: fieldPath,
// message, reason, rule), so that the rules of a file controller-gen
// generated and mut2cel rewrote read alike. Empty fields are left out.
func (r Rule) Fields() [][2]string {
	var fields [][2]string
	for _, f := range [][2]string{{"fieldPath", r.FieldPath}, {"message", r.Message}, {"reason", r.Reason}, {"rule", r.Rule}} {
		if f[1] != "" || f[0] == "rule" {
			fields = append(fields, f)
		}
	}
	return fields
}

// Value is the rule as a decoded document value.
func (r Rule) Value() map[string]interface{} {
	m := map[string]interface{}{}
	for _, f := range r.Fields() {
		m[f[0]] = f[1]
	}
	return m
}

// RuleOf reads an entry of x-kubernetes-validations that Rule can hold: a
// mapping with a rule and no key other than Rule's, all strings.
func RuleOf(entry interface{}) (Rule, bool) {
	m, _ := entry.(map[string]interface{})
	var r Rule
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return Rule{}, false
		}
		switch k {
		case "rule":
			r.Rule = s
		case "message":
			r.Message = s
		case "reason":
			r.Reason = s
		case "fieldPath":
			r.FieldPath = s
		default:
			return Rule{}, false
		}
	}
	return r, r.Rule != "" && len(m) == len(r.Fields())
}

// check rejects values that no YAML or JSON text can hold as given.
func (e Edit) check() error {
	for i, rules := range [][]Rule{e.AddRules, e.RemoveRules} {
		what := [2]string{"new", "removed"}[i]
		for _, r := range rules {
			for _, f := range r.Fields() {
				if !utf8.ValidString(f[1]) {
					return errorf("the %s of a %s rule is not valid UTF-8: %q", f[0], what, f[1])
				}
			}
		}
	}
	for _, s := range e.Set {
		if !utf8.ValidString(s.Key) {
			return errorf("key %q is not valid UTF-8", s.Key)
		}
		switch v := s.Value.(type) {
		case int64, bool:
		case string:
			if !utf8.ValidString(v) {
				return errorf("the value of %s is not valid UTF-8: %q", s.Key, v)
			}
		default:
			return errorf("cannot set %s to a %T: only int64, string and bool", s.Key, s.Value)
		}
	}
	return nil
}
