package edit

import (
	"fmt"
	"reflect"
)

// Error is an edit that cannot be applied to the document.
type Error struct {
	Index int // of the edit in the list, from 0
	Edit  Edit
	Err   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("edit %d at %s: %v", e.Index+1, Render(e.Edit.Path), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(format string, args ...interface{}) error { return fmt.Errorf(format, args...) }

// Apply returns a copy of doc with the edits applied, in order (see Edit
// for what each part does). doc is not modified. An edit that does not fit
// the document is an *Error, and nothing is returned.
func Apply(doc map[string]interface{}, edits []Edit) (map[string]interface{}, error) {
	if doc == nil {
		if len(edits) == 0 {
			return nil, nil
		}
		return nil, &Error{0, edits[0], fmt.Errorf("the document is not a mapping")}
	}
	out := Copy(doc).(map[string]interface{})
	for i, e := range edits {
		if err := e.ApplyTo(out); err != nil {
			return nil, &Error{i, e, err}
		}
	}
	return out, nil
}

// ApplyTo applies one edit to doc in place, for callers that follow a
// document edit by edit. On error doc may be partly edited.
func (e Edit) ApplyTo(doc map[string]interface{}) error {
	if err := e.check(); err != nil {
		return err
	}
	if e.Create {
		if err := create(doc, e.Path); err != nil {
			return err
		}
	}
	m, err := Mapping(doc, e.Path)
	if err != nil {
		return err
	}
	for _, k := range e.Remove {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("cannot remove %s: no such key", k)
		}
		delete(m, k)
	}
	list, ok := m[ValidationsKey].([]interface{})
	if !ok && m[ValidationsKey] != nil && (len(e.AddRules) > 0 || len(e.RemoveRules) > 0) {
		return fmt.Errorf("%s is a %T, not a list", ValidationsKey, m[ValidationsKey])
	}
	if len(e.RemoveRules) > 0 {
		if list, err = removeRules(list, e.RemoveRules); err != nil {
			return err
		}
		if len(list) == 0 && len(e.AddRules) == 0 {
			delete(m, ValidationsKey)
		}
	}
	for _, s := range e.Set {
		m[s.Key] = s.Value
	}
	if len(e.AddRules) == 0 {
		if len(e.RemoveRules) > 0 && len(list) > 0 {
			m[ValidationsKey] = list
		}
		return nil
	}
	for _, r := range e.AddRules {
		list = append(list, r.Value())
	}
	m[ValidationsKey] = list
	return nil
}

// create makes the last step of path an empty mapping when it is absent
// or null.
func create(doc map[string]interface{}, path []interface{}) error {
	if len(path) == 0 {
		return nil
	}
	key, ok := path[len(path)-1].(string)
	if !ok {
		return fmt.Errorf("cannot create %s: only a mapping key can be created", Render(path))
	}
	parent, err := Mapping(doc, path[:len(path)-1])
	if err != nil {
		return err
	}
	if parent[key] == nil {
		parent[key] = map[string]interface{}{}
	}
	return nil
}

// removeRules deletes the list entries equal to one of rules; each rule
// must match at least one entry.
func removeRules(list []interface{}, rules []Rule) ([]interface{}, error) {
	for _, r := range rules {
		want, kept := r.Value(), list[:0:0]
		for _, x := range list {
			if !reflect.DeepEqual(x, want) {
				kept = append(kept, x)
			}
		}
		if len(kept) == len(list) {
			return nil, fmt.Errorf("cannot remove rule %q: no such entry in %s", r.Rule, ValidationsKey)
		}
		list = kept
	}
	return list, nil
}

// Mapping follows path to a mapping of doc.
func Mapping(doc map[string]interface{}, path []interface{}) (map[string]interface{}, error) {
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
			return nil, fmt.Errorf("%s not found", Render(path[:i+1]))
		}
	}
	m, ok := cur.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a mapping")
	}
	return m, nil
}

// Copy copies a decoded JSON value.
func Copy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, x := range t {
			m[k] = Copy(x)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i, x := range t {
			l[i] = Copy(x)
		}
		return l
	}
	return v
}
