package translate

import "reflect"

const validationsKey = "x-kubernetes-validations"

// editTarget returns the mapping an edit changes, making it first when the
// edit has Create and the last step of its path is absent or null.
func editTarget(doc map[string]interface{}, e Edit) (map[string]interface{}, bool) {
	if e.Create && len(e.Path) > 0 {
		key, isKey := e.Path[len(e.Path)-1].(string)
		if parent, ok := nestedMap(doc, e.Path[:len(e.Path)-1]...); ok && isKey && parent[key] == nil {
			parent[key] = map[string]interface{}{}
		}
	}
	return nestedMap(doc, e.Path...)
}

// applyRulesAndSettings applies the RemoveRules and Set of an edit, which
// come after Remove and before AddRules. A list that RemoveRules empties
// goes with its key unless rules are added.
func applyRulesAndSettings(target map[string]interface{}, e Edit) {
	if len(e.RemoveRules) > 0 {
		list, _ := target[validationsKey].([]interface{})
		var kept []interface{}
		for _, entry := range list {
			if !matchesAny(entry, e.RemoveRules) {
				kept = append(kept, entry)
			}
		}
		switch {
		case len(kept) > 0 || len(e.AddRules) > 0:
			target[validationsKey] = kept
		default:
			delete(target, validationsKey)
		}
	}
	for _, s := range e.Set {
		target[s.Key] = s.Value
	}
}

func matchesAny(entry interface{}, rules []Rule) bool {
	for _, r := range rules {
		if reflect.DeepEqual(entry, r.value()) {
			return true
		}
	}
	return false
}
