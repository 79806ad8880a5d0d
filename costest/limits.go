package costest

import (
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/mut2cel/mut2cel/crd"
)

// Limit is one of the cost limits the apiserver enforces.
type Limit struct {
	// Name identifies the limit in reports and JSON.
	Name string
	// Value is the limit itself.
	Value uint64
	// Static limits make the apiserver reject the CRD; the others cancel a
	// rule, and so reject the update, while it runs.
	Static bool
	// What says what the limit applies to.
	What string
}

// The limits, with the apiserver's values.
var (
	PerExpressionLimit = Limit{"per-expression", validation.StaticEstimatedCostLimit, true,
		"estimated cost of one rule or messageExpression, times its cardinality"}
	PerVersionLimit = Limit{"per-version", validation.StaticEstimatedCRDCostLimit, true,
		"sum of the estimated costs of a version's rules"}
	PerCallLimit = Limit{"per-call", celconfig.PerCallLimit, false,
		"runtime cost of one evaluation of one rule"}
	PerObjectLimit = Limit{"per-object", celconfig.RuntimeCELCostBudget, false,
		"runtime cost of all rule evaluations on one object"}
)

// VersionPath is the Path of an Exceeded for the limits on a version as a
// whole, the per-version and the per-object one.
const VersionPath = crd.RootName

// Exceeded is one limit crossed by one expression or by the version.
type Exceeded struct {
	Limit Limit
	// Path is the expression's path, or VersionPath for the version limits.
	Path string
	Cost uint64
}

// Factor is how many times the limit the cost is.
func (x Exceeded) Factor() float64 { return float64(x.Cost) / float64(x.Limit.Value) }

func (x Exceeded) String() string {
	return fmt.Sprintf("%s: estimated cost %d exceeds the %s limit %d by a factor of %.2f", x.Path, x.Cost, x.Limit.Name, x.Limit.Value, x.Factor())
}

// Exceeded lists every limit the version crosses, static ones first, each
// group in schema order. The runtime per-object budget is compared with the
// version total: when the total fits, no object can exhaust the budget.
func (r *Report) Exceeded() []Exceeded {
	var static, runtime []Exceeded
	for _, c := range r.Costs {
		if c.Total > PerExpressionLimit.Value {
			static = append(static, Exceeded{PerExpressionLimit, c.Path(), c.Total})
		}
		if c.PerCall > PerCallLimit.Value {
			runtime = append(runtime, Exceeded{PerCallLimit, c.Path(), c.PerCall})
		}
	}
	if r.Total > PerVersionLimit.Value {
		static = append(static, Exceeded{PerVersionLimit, VersionPath, r.Total})
	}
	if r.Total > PerObjectLimit.Value {
		runtime = append(runtime, Exceeded{PerObjectLimit, VersionPath, r.Total})
	}
	return append(static, runtime...)
}

// Rejected reports whether the apiserver rejects the version for cost.
func (r *Report) Rejected() bool {
	for _, x := range r.Exceeded() {
		if x.Limit.Static {
			return true
		}
	}
	return false
}
