package translate

import (
	"errors"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// addBounds adds to the edits of spec.versions[i] the maxLength, maxItems
// and maxProperties the generated rules need to fit the CEL cost limits
// (costest.Bounds says which and why). With NoBounds it reports each
// needed bound as a problem instead.
func addBounds(doc map[string]interface{}, i int, edits []Edit, opts Options) ([]Edit, []Bound, []Problem) {
	if len(edits) == 0 {
		return edits, nil, nil
	}
	rootPath := []interface{}{"spec", "versions", i, "schema", "openAPIV3Schema"}
	raw, _ := nestedMap(doc, rootPath...)
	schema := deepCopy(stripDeclarations(raw))
	generated := map[string]bool{}
	for _, e := range edits {
		rel := Edit{Path: e.Path[len(rootPath):], AddRules: e.AddRules}
		ApplyEdits(schema, []Edit{rel})
		for _, r := range e.AddRules {
			generated[ruleKey(rel.Path, r.Rule)] = true
		}
	}
	props := &apiextensionsv1.JSONSchemaProps{}
	if err := convertJSON(schema, props); err != nil {
		return nil, nil, []Problem{{Path: rootPath, Detail: "Invalid value: " + err.Error()}}
	}
	found, err := costest.Bounds(props, kube.NewRuleEnvSet(opts.KubeVersion.Minor), costest.BoundOptions{
		Selected: func(c costest.Cost) bool {
			return c.Kind == costest.KindRule && generated[ruleKey(toSteps(c.Node), c.Expression)]
		},
		Explicit: map[string]int64{costest.MaxLength: opts.MaxLength, costest.MaxItems: opts.MaxItems, costest.MaxProperties: opts.MaxProperties},
	})
	var unfit *costest.UnfitError
	switch {
	case errors.As(err, &unfit):
		return nil, nil, []Problem{{Path: rootPath, Detail: "Forbidden: " + unfitDetail(unfit, opts)}}
	case err != nil:
		return nil, nil, []Problem{{Path: rootPath, Detail: "Internal error: estimating rule costs: " + err.Error()}}
	}
	var bounds []Bound
	for _, b := range found {
		bounds = append(bounds, Bound{Path: append(append([]interface{}{}, rootPath...), toSteps(b.Node)...), Keyword: b.Keyword, Value: b.Value})
	}
	if opts.NoBounds {
		return nil, nil, neededBounds(bounds)
	}
	return withBounds(edits, bounds), bounds, nil
}

// ruleKey identifies a rule by its node and text: the apiserver itself
// keys a node's rules by their text.
func ruleKey(node []interface{}, rule string) string {
	return pathKey(node) + "\x00" + rule
}

// withBounds adds each bound to the edit of its node, or as a new edit
// after the others.
func withBounds(edits []Edit, bounds []Bound) []Edit {
	at := map[string]int{}
	for i, e := range edits {
		at[pathKey(e.Path)] = i
	}
	for _, b := range bounds {
		set := Setting{Key: b.Keyword, Value: b.Value}
		if i, ok := at[pathKey(b.Path)]; ok {
			edits[i].Set = append(edits[i].Set, set)
			continue
		}
		at[pathKey(b.Path)] = len(edits)
		edits = append(edits, Edit{Path: b.Path, Set: []Setting{set}})
	}
	return edits
}

// neededBounds reports, for --no-bounds, every bound the rules need.
func neededBounds(bounds []Bound) []Problem {
	problems := make([]Problem, len(bounds))
	for i, b := range bounds {
		problems[i] = Problem{Path: b.Path, Detail: fmt.Sprintf(
			"Required value: the generated rules need %s: %d (or smaller) here to fit the CEL cost limits; add it, or let mut2cel add it by omitting --no-bounds", b.Keyword, b.Value)}
	}
	return problems
}

func unfitDetail(e *costest.UnfitError, opts Options) string {
	var b strings.Builder
	b.WriteString(e.Error())
	if opts.MaxLength > 0 || opts.MaxItems > 0 || opts.MaxProperties > 0 {
		b.WriteString("; the explicit --max-length, --max-items or --max-properties values may be too large")
	} else {
		b.WriteString("; lower the existing bounds on these fields, or declare less")
	}
	return b.String()
}
