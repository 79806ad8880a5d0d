package policyrun

import (
	"testing"

	"github.com/mut2cel/mut2cel/costest"
)

// TestCostLine pins the wording of the three outcomes; the scripts of
// cmd/mut2cel show the first two on real policies.
func TestCostLine(t *testing.T) {
	two := []costest.Cost{{PerCall: 40}, {PerCall: 2_000_000}}
	for _, tt := range []struct {
		name  string
		reach costest.Reach
		want  string
	}{
		{"any object", costest.Reach{Costs: two[:1], PerObject: 40},
			"1 validation, within the runtime limits on any object"},
		{"sizes", costest.Reach{Costs: two, OverPerCall: two[1:], PerObject: 2_000_040, Within: true, Entries: 50, Length: 253},
			"2 validations, within the runtime limits on objects whose lists and maps hold at most 50 entries and strings at most 253 characters (docs/cost.md)"},
		{"entries only", costest.Reach{Costs: two, OverPerCall: two[1:], PerObject: 2_000_040, Within: true, Entries: 200},
			"2 validations, within the runtime limits on objects whose lists and maps hold at most 200 entries (docs/cost.md)"},
		{"never", costest.Reach{Costs: two, OverPerCall: two[1:], PerObject: 2_000_040},
			"2 validations, over the runtime limits even on objects whose lists and maps hold 1 entry and strings 253 characters (docs/cost.md)"},
	} {
		if got := costLine(&tt.reach); got != tt.want {
			t.Errorf("%s: costLine = %q, want %q", tt.name, got, tt.want)
		}
	}
}
