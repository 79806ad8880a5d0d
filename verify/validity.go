package verify

import (
	"fmt"
	"strings"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/verify/internal/jsonvalue"
)

// validateOld decides, once, whether the apiserver accepts to create the
// old object of a pair, and returns why not, nil when it does. Only then
// is it a possible stored object, and the new one refused, if at all, by
// transition rules alone, or on create (newRefusal).
//
// The reasons are the apiserver's (internal/kube.ObjectValidator),
// found for less by verify/internal/validity: the old object is
// validated whole but without building kube-openapi's validators at
// every value, the new one only where it differs from the old, its rules
// evaluated only where their scope holds a change, kube-openapi's
// validation run only at the node that holds what fails. validityCheck,
// set by the tests, holds every decision and reason to the apiserver's.
func (r *versionRun) validateOld(so *oldStored) *Refusal {
	if so.validated {
		return so.refusal
	}
	so.validated = true
	errs, cost := r.validity.Object(so.read)
	if validityCheck != nil {
		validityCheck("old", so.read, nil, errs, r.objects.Validate(so.read))
	}
	so.cost = cost
	if len(errs) > 0 {
		so.refusal = refusalOf("old", firstError(errs))
	}
	return so.refusal
}

// newRefusal says why the apiserver refuses to create the new object of
// a pair whose old one it accepts, nil when it accepts it.
func (r *versionRun) newRefusal(so *oldStored, storedNew map[string]interface{}) *Refusal {
	errs, ok := r.validity.Changed(so.read, so.cost, storedNew)
	if validityCheck != nil && ok {
		validityCheck("new", storedNew, so.read, errs, r.objects.Validate(storedNew))
	}
	if !ok {
		errs = r.objects.Validate(storedNew)
	}
	if len(errs) > 0 {
		return refusalOf("new", firstError(errs))
	}
	return nil
}

// validityCheck, when set, is called with the reasons validity finds to
// refuse an object (old, or new with the old object it was judged
// against) and the apiserver's reasons on the same object.
var validityCheck func(object string, obj, old map[string]interface{}, fast, apiserver field.ErrorList)

// CheckValidity makes every later run hold the reasons validity finds
// (refusal) to the apiserver's validation of the same object, and panic
// where they differ. Like CheckStoredObjects it is for the tests, which
// call it in TestMain, so that every pair of every test that runs Verify
// checks it; it runs the apiserver's validation of both objects of every
// pair once more.
func CheckValidity() { validityCheck = mustRefuseAsAPIServer }

func mustRefuseAsAPIServer(object string, obj, old map[string]interface{}, fast, apiserver field.ErrorList) {
	validityDecisions.add(len(fast) == 0, len(apiserver) == 0)
	f, a := strings.Join(SortedMessages(fast), "\n"), strings.Join(SortedMessages(apiserver), "\n")
	if f != a {
		panic(fmt.Sprintf("validity finds other reasons than the apiserver to refuse the %s object\nvalidity:  %s\napiserver: %s\nobject: %s\nold:    %s",
			object, f, a, jsonvalue.Canonical(obj), jsonvalue.Canonical(old)))
	}
}

// validityDecisions counts the decisions CheckValidity compared, for the
// tests to report.
var validityDecisions decisionCounts

type decisionCounts struct {
	compared, refusedFast, refusedAPIServer atomic.Int64
}

func (d *decisionCounts) add(fast, apiserver bool) {
	d.compared.Add(1)
	if !fast {
		d.refusedFast.Add(1)
	}
	if !apiserver {
		d.refusedAPIServer.Add(1)
	}
}
