package manifest

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/mut2cel/mut2cel/translate"
)

// validationsKey is the schema extension that holds CEL rules.
const validationsKey = "x-kubernetes-validations"

// ApplyData returns a copy of doc with the edits applied, in order. For
// each edit: with Create, an absent or null last step of Path becomes an
// empty mapping; the keys in Remove are deleted from the mapping at Path;
// entries of its x-kubernetes-validations list equal to a rule of
// RemoveRules are deleted (the key too when that empties the list and
// AddRules is empty); the keys of Set are set; AddRules are appended to
// the list, which is created when absent or null. doc is not modified. This
// is the value that Document.Apply guarantees for the edited document.
func ApplyData(doc map[string]interface{}, edits []translate.Edit) (map[string]interface{}, error) {
	out, i, err := applyData(doc, edits)
	if err != nil {
		return nil, fmt.Errorf("edit %d at %s: %v", i+1, renderPath(edits[i].Path), err)
	}
	return out, nil
}

// applyData is ApplyData reporting the index of the edit that failed.
func applyData(doc map[string]interface{}, edits []translate.Edit) (map[string]interface{}, int, error) {
	if doc == nil {
		return nil, 0, errNotMapping
	}
	out := deepCopy(doc).(map[string]interface{})
	for i, e := range edits {
		if err := checkEdit(e); err != nil {
			return nil, i, err
		}
		if err := applyDataEdit(out, e); err != nil {
			return nil, i, err
		}
	}
	return out, 0, nil
}

func applyDataEdit(doc map[string]interface{}, e translate.Edit) error {
	if e.Create {
		if err := createData(doc, e.Path); err != nil {
			return err
		}
	}
	m, err := dataMapping(doc, e.Path)
	if err != nil {
		return err
	}
	for _, k := range e.Remove {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("cannot remove %s: no such key", k)
		}
		delete(m, k)
	}
	list, ok := m[validationsKey].([]interface{})
	if !ok && m[validationsKey] != nil && (len(e.AddRules) > 0 || len(e.RemoveRules) > 0) {
		return fmt.Errorf("%s is a %T, not a list", validationsKey, m[validationsKey])
	}
	if len(e.RemoveRules) > 0 {
		if list, err = removeRuleValues(list, e.RemoveRules); err != nil {
			return err
		}
		if len(list) == 0 && len(e.AddRules) == 0 {
			delete(m, validationsKey)
		}
	}
	for _, s := range e.Set {
		m[s.Key] = s.Value
	}
	if len(e.AddRules) == 0 {
		if len(e.RemoveRules) > 0 && len(list) > 0 {
			m[validationsKey] = list
		}
		return nil
	}
	for _, r := range e.AddRules {
		list = append(list, ruleValue(r))
	}
	m[validationsKey] = list
	return nil
}

// checkEdit rejects values that no YAML or JSON text can hold as given.
func checkEdit(e translate.Edit) error {
	for i, rules := range [][]translate.Rule{e.AddRules, e.RemoveRules} {
		what := [2]string{"new", "removed"}[i]
		for _, r := range rules {
			for _, f := range ruleFields(r) {
				if !utf8.ValidString(f[1]) {
					return fmt.Errorf("the %s of a %s rule is not valid UTF-8: %q", f[0], what, f[1])
				}
			}
		}
	}
	for _, s := range e.Set {
		if !utf8.ValidString(s.Key) {
			return fmt.Errorf("key %q is not valid UTF-8", s.Key)
		}
		switch v := s.Value.(type) {
		case int64, bool:
		case string:
			if !utf8.ValidString(v) {
				return fmt.Errorf("the value of %s is not valid UTF-8: %q", s.Key, v)
			}
		default:
			return fmt.Errorf("cannot set %s to a %T: only int64, string and bool", s.Key, s.Value)
		}
	}
	return nil
}

// createData makes the last step of path an empty mapping when it is
// absent or null.
func createData(doc map[string]interface{}, path []interface{}) error {
	if len(path) == 0 {
		return nil
	}
	key, ok := path[len(path)-1].(string)
	if !ok {
		return fmt.Errorf("cannot create %s: only a mapping key can be created", renderPath(path))
	}
	parent, err := dataMapping(doc, path[:len(path)-1])
	if err != nil {
		return err
	}
	if parent[key] == nil {
		parent[key] = map[string]interface{}{}
	}
	return nil
}

// removeRuleValues deletes the list entries equal to one of rules; each
// rule must match at least one entry.
func removeRuleValues(list []interface{}, rules []translate.Rule) ([]interface{}, error) {
	for _, r := range rules {
		want, kept := ruleValue(r), list[:0:0]
		for _, x := range list {
			if !reflect.DeepEqual(x, want) {
				kept = append(kept, x)
			}
		}
		if len(kept) == len(list) {
			return nil, fmt.Errorf("cannot remove rule %q: no such entry in %s", r.Rule, validationsKey)
		}
		list = kept
	}
	return list, nil
}

func dataMapping(doc map[string]interface{}, path []interface{}) (map[string]interface{}, error) {
	var cur interface{} = doc
	for i, step := range path {
		var ok bool
		switch s := step.(type) {
		case string:
			var m map[string]interface{}
			if m, ok = cur.(map[string]interface{}); ok {
				cur, ok = m[s]
			}
		case int:
			var l []interface{}
			if l, ok = cur.([]interface{}); ok && s >= 0 && s < len(l) {
				cur = l[s]
			} else {
				ok = false
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s not found", renderPath(path[:i+1]))
		}
	}
	m, ok := cur.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a mapping")
	}
	return m, nil
}

// ruleFields lists the keys of a written rule, in the order they are
// written: the rule first because it is what a reader looks for, then the
// text shown to users, then the two fields that shape the error. Empty
// fields are left out.
func ruleFields(r translate.Rule) [][2]string {
	fields := [][2]string{{"rule", r.Rule}}
	for _, f := range [][2]string{{"message", r.Message}, {"reason", r.Reason}, {"fieldPath", r.FieldPath}} {
		if f[1] != "" {
			fields = append(fields, f)
		}
	}
	return fields
}

func ruleValue(r translate.Rule) map[string]interface{} {
	m := map[string]interface{}{}
	for _, f := range ruleFields(r) {
		m[f[0]] = f[1]
	}
	return m
}

// deepCopy copies a decoded JSON value.
func deepCopy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i, x := range t {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}
