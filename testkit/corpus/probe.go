package corpus

import (
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// CheckTotals checks per-version cost totals (by version index) against
// ValidateCustomResourceDefinition. The apiserver does not report a total
// below its limit, so probe rules of known cost are added to each version:
// with probes bringing the given total to exactly the per-version limit the
// apiserver must accept the CRD, and with one more unit it must reject it
// for the total. Any difference between a given total and the apiserver's
// fails one of the two.
func CheckTotals(def *apiextensionsv1.CustomResourceDefinition, totals map[int]uint64) error {
	for _, extra := range []uint64{0, 1} {
		errs, err := kube.ValidateCRD(withProbes(def, totals, extra))
		if err != nil {
			return err
		}
		got, others := totalErrors(errs, len(def.Spec.Versions))
		var want []int
		if extra == 1 {
			for i := range totals {
				want = append(want, i)
			}
			sort.Ints(want)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(others) > 0 {
			return fmt.Errorf("totals %v plus %d: the apiserver reports the total exceeded for versions %v, want %v; all errors: %v",
				totals, extra, got, want, errs)
		}
	}
	return nil
}

// withProbes adds to every version in totals root properties whose rules
// cost, in all, the per-version limit minus the total, plus extra. Each
// probe is a list of booleans, maxItems n, with the rule "self" (cost 1 per
// item), so a probe costs n; no probe exceeds the per-expression limit.
func withProbes(def *apiextensionsv1.CustomResourceDefinition, totals map[int]uint64, extra uint64) *apiextensionsv1.CustomResourceDefinition {
	def = def.DeepCopy()
	for i, total := range totals {
		root := def.Spec.Versions[i].Schema.OpenAPIV3Schema
		if root.Properties == nil {
			root.Properties = map[string]apiextensionsv1.JSONSchemaProps{}
		}
		need := validation.StaticEstimatedCRDCostLimit - total + extra
		for p := 0; need > 0; p++ {
			n := min(need, uint64(validation.StaticEstimatedCostLimit))
			root.Properties[fmt.Sprintf("costprobe%d", p)] = apiextensionsv1.JSONSchemaProps{
				Type: "array", MaxItems: ptr.To(int64(n)),
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "boolean", XValidations: apiextensionsv1.ValidationRules{{Rule: "self"}},
				}},
			}
			need -= n
		}
	}
	return def
}

// totalErrors returns the version indices whose total the apiserver reports
// as exceeded, and any error that is not about the total. A CRD whose
// versions share one schema is validated as spec.validation, which stands
// for all its versions.
func totalErrors(errs field.ErrorList, versions int) (exceeded []int, others field.ErrorList) {
	for _, e := range errs {
		switch {
		case strings.HasPrefix(e.Detail, "contributed to estimated rule cost total exceeding"):
		case strings.HasPrefix(e.Detail, "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget"):
			if i, ok := crd.VersionOfField(e.Field); ok {
				exceeded = append(exceeded, i)
			} else if e.Field == "spec.validation.openAPIV3Schema" {
				for i := 0; i < versions; i++ {
					exceeded = append(exceeded, i)
				}
			} else {
				others = append(others, e)
			}
		default:
			others = append(others, e)
		}
	}
	sort.Ints(exceeded)
	return exceeded, others
}
