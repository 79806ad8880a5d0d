package pairgen

import (
	"math/rand"
	"regexp"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// quantityPattern is the pattern of resource quantities in published
// CRDs, on int-or-string fields.
const quantityPattern = `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`

// TestIntOrStringPool pins that an int-or-string field gets numbers and
// strings, and that a pattern constrains its strings: quantities drawn
// as "a" made the apiserver refuse one generated pair in seven of kueue
// LocalQueue's, which verify then set aside unjudged.
func TestIntOrStringPool(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pattern string
	}{
		{"no pattern", ""},
		{"quantity", quantityPattern},
		{"digits", `^[0-9]+$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &schema.Structural{Extensions: schema.Extensions{XIntOrString: true}}
			if tc.pattern != "" {
				s.ValueValidation = &schema.ValueValidation{Pattern: tc.pattern}
			}
			pool := scalarPool(s, rand.New(rand.NewSource(1)))
			var numbers, strings int
			for _, v := range pool {
				switch x := v.(type) {
				case int64:
					numbers++
				case string:
					strings++
					if tc.pattern != "" && !regexp.MustCompile(tc.pattern).MatchString(x) {
						t.Errorf("pool %v: %q does not match %s", pool, x, tc.pattern)
					}
				default:
					t.Errorf("pool %v: %v is neither a number nor a string", pool, v)
				}
			}
			if numbers == 0 || strings == 0 {
				t.Errorf("pool %v: %d numbers and %d strings, want both", pool, numbers, strings)
			}
		})
	}
}
