package pairgen

import "testing"

// TestUnionRequiredDiscriminatorStaysSet checks that the generator never
// unsets a discriminator the schema requires: such an object fails schema
// validation, so its pair would be set aside rather than judged (Gateway
// API's XBackendTrafficPolicy lost 6% of its pairs that way). The shape
// "discriminator unset" selects a member instead.
func TestUnionRequiredDiscriminatorStaysSet(t *testing.T) {
	for _, required := range []bool{false, true} {
		raw := map[string]interface{}{
			"type": "object",
			"properties": map[string]interface{}{
				"type": map[string]interface{}{"type": "string", "enum": []interface{}{"A", "B"}},
				"a":    map[string]interface{}{"type": "string"},
				"b":    map[string]interface{}{"type": "string"},
			},
			"x-kubernetes-unions": []interface{}{map[string]interface{}{
				"discriminator":            "type",
				"fields-to-discriminateBy": map[string]interface{}{"a": "A", "b": "B"},
			}},
		}
		if required {
			raw["required"] = []interface{}{"type"}
		}
		st, err := GenerateUnionPairs(raw, 1, 400)
		if err != nil {
			t.Fatal(err)
		}
		switch unset := st.Shapes["unset"]; {
		case required && unset > 0:
			t.Errorf("required discriminator: %d objects leave it unset (shapes %v)", unset, st.Shapes)
		case !required && unset == 0:
			t.Errorf("optional discriminator: no object leaves it unset (shapes %v): the test shows nothing", st.Shapes)
		}
	}
}
