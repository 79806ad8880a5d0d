package verify

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// Judge decides updates of custom resources of one CRD version the way a
// kube-apiserver does with its x-kubernetes-validations rules.
type Judge interface {
	// Update decides the update from old to new, both in stored form (see
	// Options.NewJudge). detail lists the apiserver's error messages, one
	// per field error, sorted (the validator's order follows Go map
	// iteration); err means no decision was made (a lost connection),
	// not that the update is denied. An err wrapping ErrInvalidPair says
	// the server refuses the pair whatever its rules say.
	Update(old, new map[string]interface{}) (denied bool, detail []string, err error)
}

// JudgeError is the error of Verify when the judge of a version fails:
// Options.NewJudge cannot build it (a server refuses the CRD that the
// apiserver's validation in process accepted), or it decides no pair for
// other reasons than the pair (a server that stops answering). The
// documents are not at fault.
type JudgeError struct {
	Version string
	Err     error
}

func (e *JudgeError) Error() string {
	return fmt.Sprintf("the judge of version %q failed: %v", e.Version, e.Err)
}

func (e *JudgeError) Unwrap() error { return e.Err }

// Target is what a Judge is built for: one served version of the CRD
// under test.
type Target struct {
	// CRD is the whole CRD document whose rules are checked.
	CRD map[string]interface{}
	// Version is the name of the version, Schema its structural schema.
	Version string
	Schema  *schema.Structural
}

// celJudge runs the apiserver's CEL validator in process. The rules are
// compiled once per version, as the apiserver does when it loads a CRD.
type celJudge struct {
	v *kube.RuleValidator
}

func newCELJudge(t Target) (Judge, error) {
	return &celJudge{v: kube.NewRuleValidator(t.Schema)}, nil
}

func (j *celJudge) Update(old, new map[string]interface{}) (bool, []string, error) {
	detail := SortedMessages(j.v.Validate(new, old))
	return len(detail) > 0, detail, nil
}

// SortedMessages returns the messages of errs, sorted, as a Judge reports
// them: the apiserver's validator lists them in Go map order.
func SortedMessages(errs field.ErrorList) []string {
	if len(errs) == 0 {
		return nil
	}
	detail := make([]string, len(errs))
	for i, e := range errs {
		detail[i] = e.Error()
	}
	sort.Strings(detail)
	return detail
}

// PolicyErrorMarker starts the detail of a policy's validation that
// failed to evaluate, so that evaluationErrors counts it: a Judge of
// another package that decides by policies (driver/verifyrun,
// driver/policyserver) starts such details with it.
const PolicyErrorMarker = "policy validation error: "

// evaluationMarkers are the texts by which the apiserver's validator tells
// a rule that could not be evaluated from a rule that returned false.
var evaluationMarkers = []string{
	" evaluating rule: ",
	"call arguments did not match a supported operator",
	"no further validation rules will be run",
	"rule compile error",
	"rule compiler initialization error",
	PolicyErrorMarker,
}

// evaluationErrors returns the messages of detail that report a rule that
// failed to evaluate.
func evaluationErrors(detail []string) []string {
	var out []string
	for _, d := range detail {
		for _, m := range evaluationMarkers {
			if strings.Contains(d, m) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// intAsFloatMarkers are how the apiserver's CEL value conversion reports
// an integer (or int-or-string) field holding a float (FACTS: "expected
// int, got float64").
var intAsFloatMarkers = []string{
	"expected int, got float64",
	"expected XIntOrString value to be either a string or integer",
}

// unexplainedByFloats drops the evaluation errors an integer sent as a
// float causes (docs/semantics.md 2.4).
func unexplainedByFloats(errs []string) []string {
	var out []string
	for _, e := range errs {
		explained := false
		for _, m := range intAsFloatMarkers {
			explained = explained || strings.Contains(e, m)
		}
		if !explained {
			out = append(out, e)
		}
	}
	return out
}

// withIntegers returns v with every integral float64 where s says integer
// (or int-or-string) replaced by the int64 it equals: the value a client
// sending 1 for 1.0 would have sent. ok reports whether there was any; v
// itself is not changed.
func withIntegers(s *schema.Structural, v interface{}) (out interface{}, ok bool) {
	if s == nil {
		return v, false
	}
	switch x := v.(type) {
	case float64:
		n, _ := jsonvalue.NumberOf(x)
		if i, integral := n.AsInt(); integral && (s.Type == "integer" || s.XIntOrString) {
			return i, true
		}
	case []interface{}:
		var list []interface{}
		for k, e := range x {
			if e, ok := withIntegers(s.Items, e); ok {
				if list == nil {
					list = append([]interface{}{}, x...)
				}
				list[k] = e
			}
		}
		if list != nil {
			return list, true
		}
	case map[string]interface{}:
		var m map[string]interface{}
		for k, e := range x {
			if e, ok := withIntegersAt(s, k, e); ok {
				if m == nil {
					m = make(map[string]interface{}, len(x))
					for k, e := range x {
						m[k] = e
					}
				}
				m[k] = e
			}
		}
		if m != nil {
			return m, true
		}
	}
	return v, false
}

// withIntegersAt is withIntegers on the value of key in an object of
// schema s. The property's schema is copied out of the map on the stack:
// taking its address in a helper that returns it put a copy of the
// schema on the heap for every field of every object judged.
func withIntegersAt(s *schema.Structural, key string, v interface{}) (interface{}, bool) {
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		return withIntegers(s.AdditionalProperties.Structural, v)
	}
	p, ok := s.Properties[key]
	if !ok {
		return v, false
	}
	return withIntegers(&p, v)
}

// unreadableMarkers are how the apiserver's CEL value conversion reports
// a stored date-time or byte string it cannot read.
var unreadableMarkers = []string{"Invalid date-time formatted string", "Invalid byte formatted string"}

// unexplainedByUnreadable drops the evaluation errors that a formatted
// string CEL cannot read causes.
func unexplainedByUnreadable(errs []string) []string {
	var out []string
	for _, e := range errs {
		explained := false
		for _, m := range unreadableMarkers {
			explained = explained || strings.Contains(e, m)
		}
		if !explained {
			out = append(out, e)
		}
	}
	return out
}
