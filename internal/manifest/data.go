package manifest

import (
	"fmt"
	"unicode/utf8"

	"github.com/mut2cel/mut2cel/translate"
)

// validationsKey is the schema extension that holds CEL rules.
const validationsKey = "x-kubernetes-validations"

// ApplyData returns a copy of doc with the edits applied, in order: for each
// edit, the keys in Remove are deleted from the mapping at Path, then
// AddRules are appended to its x-kubernetes-validations list, which is
// created when absent or null. doc is not modified. This is the value that
// Document.Apply guarantees for the edited document.
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
		if err := applyDataEdit(out, e); err != nil {
			return nil, i, err
		}
	}
	return out, 0, nil
}

func applyDataEdit(doc map[string]interface{}, e translate.Edit) error {
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
	if len(e.Set) > 0 {
		return fmt.Errorf("setting %s: node-level setting of keys is not implemented yet", e.Set[0].Key)
	}
	if len(e.AddRules) == 0 {
		return nil
	}
	list, ok := m[validationsKey].([]interface{})
	if !ok && m[validationsKey] != nil {
		return fmt.Errorf("%s is a %T, not a list", validationsKey, m[validationsKey])
	}
	for _, r := range e.AddRules {
		for _, f := range ruleFields(r) {
			if !utf8.ValidString(f[1]) {
				return fmt.Errorf("the %s of a new rule is not valid UTF-8: %q", f[0], f[1])
			}
		}
		list = append(list, ruleValue(r))
	}
	m[validationsKey] = list
	return nil
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
