package crdrules

import (
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/edit"
)

// netEdits turns fresh, the edits of the plan to the document with the
// owned rules set aside, into edits of the document as it is: owned rules
// that are generated again stay, the others are removed, new rules are
// appended, and only declarations that are really in the schema are
// removed.
func netEdits(c *crd.CRD, fresh []edit.Edit, o *Owned) []edit.Edit {
	var out []edit.Edit
	removals := o.removals()
	ownedAt := map[string][]edit.Rule{}
	for _, e := range removals {
		ownedAt[pathKey(e.Path)] = e.RemoveRules
	}
	seen := map[string]bool{}
	for _, e := range fresh {
		k := pathKey(e.Path)
		seen[k] = true
		node, _ := c.Mapping(e.Path)
		n := edit.Edit{Path: e.Path}
		for _, set := range e.Set {
			if v, ok := node[set.Key]; !ok || !sameScalar(v, set.Value) {
				n.Set = append(n.Set, set) // a bound already there is no edit
			}
		}
		for _, key := range e.Remove {
			if _, ok := node[key]; ok {
				n.Remove = append(n.Remove, key)
			}
		}
		n.RemoveRules, n.AddRules = ruleDifference(ownedAt[k], e.AddRules)
		if len(n.Remove)+len(n.RemoveRules)+len(n.Set)+len(n.AddRules) > 0 {
			out = append(out, n)
		}
	}
	for _, e := range removals {
		if !seen[pathKey(e.Path)] {
			out = append(out, e)
		}
	}
	return out
}

// ruleDifference returns the owned rules that are not generated again and
// the generated rules that are not there yet.
func ruleDifference(owned, generated []edit.Rule) (remove, add []edit.Rule) {
	for _, r := range owned {
		if !containsRule(generated, r) {
			remove = append(remove, r)
		}
	}
	for _, r := range generated {
		if !containsRule(owned, r) {
			add = append(add, r)
		}
	}
	return remove, add
}

func containsRule(rules []edit.Rule, r edit.Rule) bool {
	for _, x := range rules {
		if x == r {
			return true
		}
	}
	return false
}

// sameScalar compares a decoded value with a Setting value; decoded
// numbers may be int64 or float64.
func sameScalar(decoded, value interface{}) bool {
	switch v := value.(type) {
	case int64:
		switch d := decoded.(type) {
		case int64:
			return d == v
		case float64:
			return d == float64(v)
		}
		return false
	}
	return decoded == value
}
