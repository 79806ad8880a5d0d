package schemapath

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// At is the node of s that path leads to, for reading; nil when there
// is none.
func At(s *schema.Structural, path Path) *schema.Structural {
	for _, st := range path {
		switch {
		case s == nil:
			return nil
		case st.Kind == Property:
			p, ok := s.Properties[st.Name]
			if !ok {
				return nil
			}
			s = &p
		case st.Kind == Items:
			s = s.Items
		case s.AdditionalProperties != nil:
			s = s.AdditionalProperties.Structural
		default:
			return nil
		}
	}
	return s
}

// RuleTargets lists the nodes that hold rules, and after each rule the
// field its fieldPath names, in walk order: a node once per rule.
func RuleTargets(s *schema.Structural) []Path {
	var out []Path
	var walk func(s *schema.Structural, path Path)
	walk = func(s *schema.Structural, path Path) {
		for _, r := range s.XValidations {
			out = append(out, path)
			if fp := parseFieldPath(r.FieldPath); fp != nil {
				out = append(out, append(append(Path{}, path...), fp...))
			}
		}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[name]
			walk(&p, path.Child(Prop(name)))
		}
		if s.Items != nil {
			walk(s.Items, path.Child(Step{Kind: Items}))
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			walk(s.AdditionalProperties.Structural, path.Child(Step{Kind: Values}))
		}
	}
	walk(s, nil)
	return out
}

// parseFieldPath reads the property steps of a rule's fieldPath, written
// .a.b or ['a.b'] (the forms the apiserver accepts); nil when it has none
// or uses list indexing.
func parseFieldPath(fp string) Path {
	var out Path
	for fp != "" {
		switch {
		case strings.HasPrefix(fp, "['"):
			end := strings.Index(fp, "']")
			if end < 0 {
				return nil
			}
			name := strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(fp[2:end])
			out, fp = append(out, Prop(name)), fp[end+2:]
		case strings.HasPrefix(fp, "."):
			end := strings.IndexAny(fp[1:], ".[")
			if end < 0 {
				end = len(fp) - 1
			}
			out, fp = append(out, Prop(fp[1:end+1])), fp[end+1:]
		default:
			return nil
		}
	}
	return out
}
