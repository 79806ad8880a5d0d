package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// write is one judged request: the object the server held before it, and
// the object the server stores if it accepts it, both without metadata.
type write struct {
	k                 *kind
	m                 method
	name, label       string
	before, predicted map[string]interface{}
}

// judge compares the server's answer to a write with the reference checker
// and with the generated rules run locally, and returns the causes of a
// rejection as "field: Type: message".
func (d *driver) judge(t *testing.T, w write, got *unstructured.Unstructured, err error) []string {
	t.Helper()
	var causes []string
	if err != nil {
		var ok bool
		if causes, ok = invalidCauses(err); !ok {
			t.Errorf("%s: the request failed, not as a validation error: %v", w, err)
			return nil
		}
	}
	violations := w.k.checker.Check(w.before, w.predicted)
	local := w.k.rules.Validate(runtime.DeepCopyJSON(w.predicted), runtime.DeepCopyJSON(w.before))
	switch rejected := err != nil; {
	case rejected != (len(violations) > 0):
		t.Errorf("%s: the server rejected=%v, the reference checker rejected=%v\nbefore    %s\nafter     %s\nserver    %v\nchecker   %v\nlocal CEL %v",
			w, rejected, len(violations) > 0, js(w.before), js(w.predicted), causes, violations, local)
	case rejected:
		checkCauses(t, w, causes, local, violations)
	default:
		checkStored(t, w, got, local)
	}
	if err != nil {
		d.stats.count(w.k.name, w.m, w.label, rejectedByRules)
	} else {
		d.stats.count(w.k.name, w.m, w.label, accepted)
	}
	return causes
}

// checkStored requires an accepted write to be accepted by the generated
// rules locally too, and to store the predicted object.
func checkStored(t *testing.T, w write, got *unstructured.Unstructured, local field.ErrorList) {
	t.Helper()
	if len(local) > 0 {
		t.Errorf("%s: the server accepted what the generated rules reject locally: %v\nbefore %s\nafter  %s", w, local, js(w.before), js(w.predicted))
	}
	if stored := withoutMetadata(got.Object); !sameObject(stored, w.predicted) {
		t.Errorf("%s: the server stored an object other than predicted\nbefore    %s\npredicted %s\nstored    %s", w, js(w.before), js(w.predicted), js(stored))
	}
}

func (w write) String() string {
	return fmt.Sprintf("%s %s %s (%s)", w.k.name, w.name, w.label, w.m)
}

// checkCauses requires the server's causes to be exactly the errors the
// generated rules give locally, each with a generated message, at a field
// on the path of a violation the checker reports (at it, above it or below
// it: a rule on a list reports the list, the checker the changed item), and
// each violation to be reported by some cause.
func checkCauses(t *testing.T, w write, causes []string, local field.ErrorList, violations []reference.Violation) {
	t.Helper()
	var want []string
	for _, e := range local {
		want = append(want, e.Error())
		if !w.k.messages[e.Detail] {
			t.Errorf("%s: rejected with %q, which no generated rule says", w, e.Detail)
		}
	}
	sort.Strings(want)
	if !reflect.DeepEqual(causes, want) {
		t.Errorf("%s: the server's causes differ from the generated rules run locally\nserver %q\nlocal  %q", w, causes, want)
	}
	for _, c := range causes {
		f := c[:strings.Index(c, ": ")]
		if !anyViolation(violations, func(p string) bool { return related(f, p) }) {
			t.Errorf("%s: cause %q is on no path the checker reports: %v", w, c, violations)
		}
	}
	for _, v := range violations {
		if !anyCause(causes, func(f string) bool { return related(f, v.Path) }) {
			t.Errorf("%s: no cause reports violation %v; causes %q", w, v, causes)
		}
	}
}

// invalidCauses reads the causes of an Invalid status error, sorted.
func invalidCauses(err error) ([]string, bool) {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Reason != metav1.StatusReasonInvalid || status.Status().Details == nil {
		return nil, false
	}
	var out []string
	for _, c := range status.Status().Details.Causes {
		out = append(out, c.Field+": "+c.Message)
	}
	sort.Strings(out)
	return out, true
}

// related reports whether field paths a and b lie on one path from the root.
func related(a, b string) bool {
	return a == b || a == "" || b == "" || within(a, b) || within(b, a)
}

func within(inner, outer string) bool {
	return len(inner) > len(outer) && strings.HasPrefix(inner, outer) && (inner[len(outer)] == '.' || inner[len(outer)] == '[')
}

func anyViolation(vs []reference.Violation, f func(string) bool) bool {
	for _, v := range vs {
		if f(v.Path) {
			return true
		}
	}
	return false
}

func anyCause(causes []string, f func(string) bool) bool {
	for _, c := range causes {
		if f(c[:strings.Index(c, ": ")]) {
			return true
		}
	}
	return false
}

// sameObject compares two objects as JSON values.
func sameObject(a, b map[string]interface{}) bool {
	x, err1 := kube.RoundTrip(a)
	y, err2 := kube.RoundTrip(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
}

func js(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
