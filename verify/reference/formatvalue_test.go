package reference

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/mut2cel/mut2cel/internal/kube"
)

// formatSpellings are strings of the three formats the opt-in compares as
// values: several spellings of one value, other values, and strings the
// write validation stores but the apiserver's CEL cannot read.
var formatSpellings = map[string][]string{
	"date-time": {
		"2024-05-01T10:00:00Z", "2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00.000Z",
		"2024-05-01T10:00:00,000Z", "2024-05-01T05:30:00-04:30", "2024-05-01T10:00:00.0000000001Z",
		"2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.500000000Z", "2024-05-01T10:00:00.5000000009Z",
		"2024-05-02T09:00:00+23:00", "2024-05-02T10:00:00+24:00", "2024-05-01T10:00:00+24:60",
		"2024-05-01T10:00:00+25:00", "2024-05-01T10:00:00-00:61", "2024-02-29T00:00:00Z",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2024-05-01T10:00:01Z",
		"2024-05-01t10:00:00z", "2024-05-01T10:00:00z", "2024-05-01t10:00:00Z",
		"2024-05-01T10:00:00Zt", "2024-05-01T10:00:00x5Z", "2024-05-01T10:00:00.5",
	},
	"duration": {
		"1h", "60m", "3600s", "1h0m0s", "1 hour", "1hr", "60 minutes", "3600 sec", "1H",
		"0.5h", "30m", "1800s", "30 min", "1d", "24h", "1 day", "1w", "7d", "168h",
		"1h 30m", "90m", "1 hour and 30 minutes", "2 hours", "120m", "1µs", "1us", "1000ns",
		"1 micro", "5", "0", "-1h", "1 foo 2 h", "1hours", "12 hr", "3 wk", "2 mins",
		"99999999999999999999h", "1.5 hours",
	},
	"byte": {
		"YQ==", "YR==", "YS==", "Yg==", "YWI=", "YWJ=", "YWJj", "+/8=", "-_8=", "ab+/",
		"AAAA", "AAA=", "AA==", "", "YQ", "YQ=",
	},
}

// TestFormatValueAgreesWithCEL holds the checker's own reading of the
// three formats to the apiserver's CEL: for every two spellings the write
// validation stores, CEL's == holds exactly when formatValue gives equal
// values, and fails to evaluate exactly when formatValue reads none.
func TestFormatValueAgreesWithCEL(t *testing.T) {
	for format, spellings := range formatSpellings {
		props := &apiextensionsv1.JSONSchemaProps{
			Type: "object",
			Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"a": {Type: "string", Format: format},
				"b": {Type: "string", Format: format},
			},
			XValidations: apiextensionsv1.ValidationRules{{Rule: "self.a == self.b"}},
		}
		s, err := kube.Structural(props)
		if err != nil {
			t.Fatal(err)
		}
		validator := kube.NewRuleValidator(s)
		var stored []string
		for _, sp := range spellings {
			obj := map[string]interface{}{"a": sp, "b": sp}
			if errs, err := kube.ValidateObject(props, s, obj); err == nil && len(errs) == 0 {
				stored = append(stored, sp)
			}
		}
		if len(stored) < len(spellings)/2 {
			t.Fatalf("%s: the write validation stores only %q of the table", format, stored)
		}
		for _, a := range stored {
			for _, b := range stored {
				obj := map[string]interface{}{"a": a, "b": b}
				errs := validator.Validate(obj, nil)
				celError := len(errs) > 0 && !strings.Contains(errs.ToAggregate().Error(), "failed rule")
				celEqual := len(errs) == 0
				va, oka := formatValue(format, a)
				vb, okb := formatValue(format, b)
				switch {
				case !oka || !okb:
					if !celError {
						t.Errorf("%s: %q == %q: CEL gives %v, but formatValue reads no value (%v, %v)", format, a, b, errs, oka, okb)
					}
				case celError:
					t.Errorf("%s: %q == %q: CEL fails (%v), but formatValue reads both", format, a, b, errs)
				case celEqual != (va == vb):
					t.Errorf("%s: %q == %q: CEL says %v, formatValue %v (%q, %q)", format, a, b, celEqual, va == vb, va, vb)
				}
			}
		}
	}
}
