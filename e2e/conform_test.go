package e2e

import (
	"fmt"
	"regexp"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// conform edits a generated value in place so that it meets the value
// validations a pair generator may not know: string patterns and numeric
// bounds. The edits are functions of the value, so a value left unchanged by
// an update stays unchanged. What still fails validation is dropped by the
// caller.
func conform(v interface{}, s *schema.Structural) interface{} {
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = conform(e, child(s, k))
		}
	case []interface{}:
		for i, e := range x {
			x[i] = conform(e, s.Items)
		}
	case string:
		return matchPattern(x, s)
	case int64:
		return clamp(x, s)
	}
	return v
}

func child(s *schema.Structural, name string) *schema.Structural {
	if p, ok := s.Properties[name]; ok {
		return &p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}

// patternForms turn a short generated string into forms that common
// patterns accept: a domain-prefixed path (controller names), a domain name.
var patternForms = []string{"%s", "example.com/%s", "%s.example.com"}

func matchPattern(v string, s *schema.Structural) string {
	if s.ValueValidation == nil || s.ValueValidation.Pattern == "" {
		return v
	}
	re, err := regexp.Compile(s.ValueValidation.Pattern)
	if err != nil {
		return v
	}
	for _, form := range patternForms {
		if w := fmt.Sprintf(form, v); re.MatchString(w) {
			return w
		}
	}
	return v
}

func clamp(v int64, s *schema.Structural) int64 {
	vv := s.ValueValidation
	if vv == nil {
		return v
	}
	if vv.Minimum != nil && float64(v) < *vv.Minimum {
		v = int64(*vv.Minimum)
		if vv.ExclusiveMinimum {
			v++
		}
	}
	if vv.Maximum != nil && float64(v) > *vv.Maximum {
		v = int64(*vv.Maximum)
		if vv.ExclusiveMaximum {
			v--
		}
	}
	return v
}
