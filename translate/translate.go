package translate

import (
	"encoding/json"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/internal/kube"
)

func translate(doc map[string]interface{}, opts Options) (*Result, error) {
	if opts.KubeVersion.IsZero() {
		opts.KubeVersion = DefaultKubeVersion
	}
	if v, _ := doc["apiVersion"].(string); v != "apiextensions.k8s.io/v1" {
		return nil, &Error{Problems: []Problem{{Path: []interface{}{"apiVersion"}, Detail: fmt.Sprintf("Unsupported value: %q: only apiextensions.k8s.io/v1 CRDs can be translated; convert the CRD to v1 first", v)}}}
	}
	versions, _ := nestedSlice(doc, "spec", "versions")
	var edits []Edit
	var bounds []Bound
	var problems, warnings []Problem
	memo := map[string]costResult{}
	for i := range versions {
		e, origins, p := translateVersion(doc, i, opts)
		if len(p) == 0 {
			var b []Bound
			var w []Problem
			e, b, p, w = addBounds(doc, i, e, origins, opts, memo)
			bounds = append(bounds, b...)
			warnings = append(warnings, w...)
		}
		edits = append(edits, e...)
		problems = append(problems, p...)
	}
	var out map[string]interface{}
	if len(problems) == 0 {
		out = deepCopy(doc)
		ApplyEdits(out, edits)
		if len(edits) > 0 {
			problems = validateOutput(out, edits, opts)
		}
	}
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool { return problems[i].Field() < problems[j].Field() })
		return nil, &Error{Problems: problems}
	}
	return &Result{Edits: edits, Translated: out, Bounds: bounds, Warnings: warnings}, nil
}

// translateVersion translates the schema of spec.versions[i].
func translateVersion(doc map[string]interface{}, i int, opts Options) ([]Edit, map[string]origin, []Problem) {
	rootPath := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
	raw, ok := nestedMap(doc, rootPath...)
	if !ok {
		return nil, nil, nil
	}
	decls, problems := readDeclarations(raw, rootPath)
	if len(decls) == 0 || len(problems) > 0 {
		return nil, nil, problems
	}
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := convertJSON(stripDeclarations(raw), props); err != nil {
		return nil, nil, []Problem{{Path: rootPath, Detail: "Invalid value: " + err.Error()}}
	}
	s, err := kube.Structural(props)
	if err != nil {
		return nil, nil, []Problem{{Path: rootPath, Detail: "Invalid value: the schema is not structural, as the apiserver requires: " + err.Error()}}
	}
	tree := buildTree(s, decls)
	p := &planner{g: &exprGen{twoVarComprehensions: !opts.KubeVersion.Less(KubeVersion{1, 33})}, rootPath: rootPath}
	p.plan(tree)
	if len(p.problems) > 0 {
		return nil, nil, p.problems
	}
	return versionEdits(tree, rootPath), p.origins, nil
}

// versionEdits lists, in schema walk order, the declarations to remove and
// the rules to append on every node that has either.
func versionEdits(root *node, rootPath []interface{}) []Edit {
	var edits []Edit
	root.walk(func(n *node) {
		var e Edit
		if n.decl.mutability != unset {
			e.Remove = append(e.Remove, extMutability)
		}
		if n.decl.keyMutability != unset {
			e.Remove = append(e.Remove, extKeyMutability)
		}
		if n.decl.update != 0 {
			e.Remove = append(e.Remove, extUpdate)
		}
		e.AddRules = n.rules
		if len(e.Remove) > 0 || len(e.AddRules) > 0 {
			e.Path = n.path.docPath(rootPath)
			edits = append(edits, e)
		}
	})
	return edits
}

// stripDeclarations copies a raw schema without the two extensions, which the
// apiserver's types do not know.
func stripDeclarations(raw map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(raw))
	for k, v := range raw {
		switch k {
		case extMutability, extKeyMutability, extUpdate:
			continue
		case "properties":
			if props, ok := v.(map[string]interface{}); ok {
				copied := make(map[string]interface{}, len(props))
				for name, p := range props {
					if pm, ok := p.(map[string]interface{}); ok {
						copied[name] = stripDeclarations(pm)
					} else {
						copied[name] = p
					}
				}
				v = copied
			}
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]interface{}); ok {
				v = stripDeclarations(m)
			}
		case "allOf", "anyOf", "oneOf":
			if list, ok := v.([]interface{}); ok {
				copied := make([]interface{}, len(list))
				for i, b := range list {
					if bm, ok := b.(map[string]interface{}); ok {
						copied[i] = stripDeclarations(bm)
					} else {
						copied[i] = b
					}
				}
				v = copied
			}
		}
		out[k] = v
	}
	return out
}

// ApplyEdits applies edits to a decoded document in place.
func ApplyEdits(doc map[string]interface{}, edits []Edit) {
	for _, e := range edits {
		target, ok := editTarget(doc, e)
		if !ok {
			continue
		}
		for _, k := range e.Remove {
			delete(target, k)
		}
		applyRulesAndSettings(target, e)
		if len(e.AddRules) == 0 {
			continue
		}
		rules, _ := target["x-kubernetes-validations"].([]interface{})
		for _, r := range e.AddRules {
			rules = append(rules, r.value())
		}
		target["x-kubernetes-validations"] = rules
	}
}

// value is the rule as a decoded document value.
func (r Rule) value() map[string]interface{} {
	v := map[string]interface{}{"rule": r.Rule}
	if r.Message != "" {
		v["message"] = r.Message
	}
	if r.Reason != "" {
		v["reason"] = r.Reason
	}
	if r.FieldPath != "" {
		v["fieldPath"] = r.FieldPath
	}
	return v
}

func convertJSON(in interface{}, out interface{}) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

func deepCopy(doc map[string]interface{}) map[string]interface{} {
	var out map[string]interface{}
	if err := convertJSON(doc, &out); err != nil {
		panic(fmt.Sprintf("copying a decoded document: %v", err))
	}
	return out
}

// nestedMap follows a document path to a mapping.
func nestedMap(doc interface{}, path ...interface{}) (map[string]interface{}, bool) {
	cur := doc
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]interface{})
			if !ok {
				return nil, false
			}
			cur = m[s]
		case int:
			l, ok := cur.([]interface{})
			if !ok || s < 0 || s >= len(l) {
				return nil, false
			}
			cur = l[s]
		}
	}
	m, ok := cur.(map[string]interface{})
	return m, ok
}

func nestedSlice(doc map[string]interface{}, path ...string) ([]interface{}, bool) {
	parent, ok := nestedMap(doc, toSteps(path[:len(path)-1])...)
	if !ok {
		return nil, false
	}
	l, ok := parent[path[len(path)-1]].([]interface{})
	return l, ok
}

func toSteps(keys []string) []interface{} {
	out := make([]interface{}, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out
}
