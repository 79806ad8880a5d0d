package markers

import (
	"fmt"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/translate"
)

// The rules controller-gen writes for +k8s:immutable (controller-tools
// v0.21 and later; the text is that of v0.23.0, pkg/crd/markers's
// Immutable.ApplyToSchema and pkg/crd's structToSchema). The field rule
// never runs when the field or a parent is absent on one side, and the
// parent rule is written only for an optional field, only on its direct
// parent: an optional parent can be unset and set again with another
// value. mut2cel's rules for the same field deny that, so these are
// replaced, not kept beside them.
func controllerGenFieldRule() translate.Rule {
	return translate.Rule{Rule: "self == oldSelf", Message: "field is immutable"}
}

func controllerGenParentRule(name string) translate.Rule {
	return translate.Rule{Rule: fmt.Sprintf("!has(oldSelf.%s) || has(self.%s)", name, name),
		Message: fmt.Sprintf("field %s is immutable once set", name)}
}

// ControllerGenRules finds in a CRD document the rules controller-gen
// wrote for the +k8s:immutable fields of r. It returns the document
// without them (doc itself is not changed), the edits that remove them
// from doc, and a warning for each rule removed. A document without such
// rules (already rewritten, or of another CRD) comes back as it is.
func (r *Result) ControllerGenRules(doc map[string]interface{}) (map[string]interface{}, []translate.Edit, []translate.Problem) {
	name, _ := nestedMap(doc, "metadata")["name"].(string)
	versions, _ := nestedMap(doc, "spec")["versions"].([]interface{})
	var edits []translate.Edit
	var warnings []translate.Problem
	out := doc
	for _, f := range r.Immutable {
		if f.CRD != name {
			continue
		}
		for i, v := range versions {
			vm, _ := v.(map[string]interface{})
			if vm["name"] != f.Version {
				continue
			}
			root := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
			for _, c := range controllerGenRules(f) {
				rel, ok := c.node.Resolve(nestedMap(out, root...))
				if !ok {
					continue // translate reports a path the schema lacks
				}
				path := append(append([]interface{}{}, root...), rel...)
				without, ok := withoutRule(out, path, c.rule)
				if !ok {
					continue
				}
				out = without
				edits = append(edits, translate.Edit{Path: path, RemoveRules: []translate.Rule{c.rule}})
				warnings = append(warnings, translate.Problem{Path: path, Detail: fmt.Sprintf(
					"version %s: %s: replaced controller-gen's rule %q of +k8s:immutable (%s) by mut2cel's exact rules (docs/markers.md)",
					f.Version, f.Path, c.rule.Rule, f.Source)})
			}
		}
	}
	return out, edits, warnings
}

// placedRule is a rule and the node controller-gen put it on.
type placedRule struct {
	node decl.Path
	rule translate.Rule
}

// controllerGenRules are the rules controller-gen writes for one field:
// the field rule on the field (on the struct an inline field is inlined
// into), and the parent rule, which it writes only when the field is
// optional and is a property of its parent.
func controllerGenRules(f Immutable) []placedRule {
	out := []placedRule{{f.Path, controllerGenFieldRule()}}
	if n := len(f.Path); !f.Inline && n > 0 && !f.Path[n-1].Entries {
		out = append(out, placedRule{f.Path[:n-1], controllerGenParentRule(f.Path[n-1].Name)})
	}
	return out
}

// withoutRule returns doc with the entries equal to rule removed from the
// x-kubernetes-validations of the node at path, copying the maps and
// lists on the way; false when the node holds no such entry.
func withoutRule(doc map[string]interface{}, path []interface{}, rule translate.Rule) (map[string]interface{}, bool) {
	node := nestedMap(doc, path...)
	rules, _ := node[xValidations].([]interface{})
	var kept []interface{}
	for _, r := range rules {
		if !isRule(r, rule) {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(rules) {
		return doc, false
	}
	changed := make(map[string]interface{}, len(node))
	for k, v := range node {
		changed[k] = v
	}
	delete(changed, xValidations)
	if len(kept) > 0 {
		changed[xValidations] = kept
	}
	return replaced(doc, path, changed).(map[string]interface{}), true
}

const xValidations = "x-kubernetes-validations"

// isRule reports whether a decoded x-kubernetes-validations entry is
// rule, with no other keys, as translate.Edit.RemoveRules compares.
func isRule(entry interface{}, rule translate.Rule) bool {
	m, ok := entry.(map[string]interface{})
	return ok && len(m) == 2 && m["rule"] == rule.Rule && m["message"] == rule.Message
}

// replaced returns node with the value at path set to v, copying every
// map and list on the way so that node is not changed.
func replaced(node interface{}, path []interface{}, v interface{}) interface{} {
	if len(path) == 0 {
		return v
	}
	switch n := node.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(n))
		for k, x := range n {
			out[k] = x
		}
		key, _ := path[0].(string)
		out[key] = replaced(n[key], path[1:], v)
		return out
	case []interface{}:
		out := append([]interface{}(nil), n...)
		i, _ := path[0].(int)
		out[i] = replaced(n[i], path[1:], v)
		return out
	}
	return node
}

// nestedMap follows path through maps and lists; nil where it leads
// nowhere.
func nestedMap(node interface{}, path ...interface{}) map[string]interface{} {
	for _, step := range path {
		switch n := node.(type) {
		case map[string]interface{}:
			key, _ := step.(string)
			node = n[key]
		case []interface{}:
			i, ok := step.(int)
			if !ok || i < 0 || i >= len(n) {
				return nil
			}
			node = n[i]
		default:
			return nil
		}
	}
	m, _ := node.(map[string]interface{})
	return m
}

// Translate translates a CRD document that controller-gen generated from
// the marked packages: the rules controller-gen wrote for +k8s:immutable
// are taken out before translation, so that mut2cel's rules replace them,
// and the result removes them from doc and warns of each. opts must hold
// r.Sets among its Declarations; tr is translate.Translate, or a stand-in
// in tests.
func (r *Result) Translate(doc map[string]interface{}, opts translate.Options, tr func(map[string]interface{}, translate.Options) (*translate.Result, error)) (*translate.Result, error) {
	without, edits, warnings := r.ControllerGenRules(doc)
	res, err := tr(without, opts)
	if err != nil {
		return nil, err
	}
	res.Edits = append(edits, res.Edits...)
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}
