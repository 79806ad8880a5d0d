package e2e

import (
	"context"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// step is one write request of a transition.
type step struct {
	label  string // what the step does, for messages and counts
	sub    string // "" for the resource, "status" for its status subresource
	intent map[string]interface{}
}

// steps are the writes that take an object created from old to new. Without
// a status subresource that is one update. With one, the resource and its
// status are written separately, as controllers do: create cannot set
// status, so it is set first, then the resource changes, then its status.
func (k *kind) steps(old, new map[string]interface{}) []step {
	if !k.status {
		return []step{{"change", "", new}}
	}
	var out []step
	if _, ok := old["status"]; ok {
		out = append(out, step{"set status", "status", old})
	}
	out = append(out, step{"change", "", new})
	if !reflect.DeepEqual(old["status"], new["status"]) {
		out = append(out, step{"change status", "status", new})
	}
	return out
}

// driver sends transitions to the server and judges every answer.
type driver struct {
	c     *cluster
	stats *stats
}

// state is what the server holds for one object and, with apply, for its
// twin.
type state struct {
	cur, twin *unstructured.Unstructured
}

// transition creates object name from old with method m and takes it to
// new, judging every step. It returns the causes of every rejection.
func (d *driver) transition(t *testing.T, k *kind, m method, name string, old, new map[string]interface{}) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, ok := d.create(t, ctx, k, m, name, old)
	if !ok {
		return nil
	}
	var causes []string
	for _, s := range k.steps(old, new) {
		var got []string
		st, got = d.step(t, ctx, k, m, name, s, st)
		causes = append(causes, got...)
	}
	return causes
}

// create creates the object, and its twin for apply. Of the declarations
// only unions constrain creates (semantics.md 2, 11.4): the server must
// refuse exactly the objects whose unions the reference checker finds
// broken, and a create refused so ends the pair.
func (d *driver) create(t *testing.T, ctx context.Context, k *kind, m method, name string, old map[string]interface{}) (state, bool) {
	t.Helper()
	var st state
	var err error
	if st.cur, err = k.create(ctx, d.c, m, name, old); err != nil {
		if broken := k.checker.CheckCreate(withoutMetadata(old)); len(broken) > 0 {
			d.stats.count(k.name, m, "create", rejectedByRules) // as the reference says
			return st, false
		}
		t.Errorf("%s %s: create with %s was refused: %v\nobject %s", k.name, name, m, err, js(old))
		return st, false
	}
	if broken := k.checker.CheckCreate(withoutMetadata(st.cur.Object)); len(broken) > 0 {
		t.Errorf("%s %s: create with %s was allowed, but the reference checker finds %v\nobject %s", k.name, name, m, broken, js(st.cur.Object))
		return st, false
	}
	if m != apply {
		return st, true
	}
	if st.twin, err = k.twin.create(ctx, d.c, m, name, old); err != nil {
		t.Errorf("%s %s: create of the twin was refused: %v", k.name, name, err)
		return st, false
	}
	if a, b := withoutMetadata(st.cur.Object), k.fromTwin(st.twin); !sameObject(a, b) {
		t.Errorf("%s %s: the twin stored a different object on create:\n%s\ntwin %s", k.name, name, js(a), js(b))
		return st, false
	}
	return st, true
}

// step sends one write, judges it, and returns what the server holds after.
func (d *driver) step(t *testing.T, ctx context.Context, k *kind, m method, name string, s step, st state) (state, []string) {
	t.Helper()
	w := write{k: k, m: m, name: name, label: s.label, before: withoutMetadata(st.cur.Object)}
	predicted, refusal, ok := d.predict(t, ctx, w, s, st)
	if !ok {
		return st, nil
	}
	got, err := k.write(ctx, d.c, m, s.sub, st.cur, s.intent, false)
	if refusal != nil {
		d.sameRefusal(t, w, refusal, err)
		return st, nil
	}
	w.predicted = predicted
	causes := d.judge(t, w, got, err)
	if err != nil {
		return st, causes
	}
	next := state{cur: got}
	if m == apply {
		if next.twin, err = k.twin.write(ctx, d.c, m, s.sub, st.twin, s.intent, false); err != nil {
			t.Errorf("%s: the twin refused what the server accepted: %v", w, err)
		}
	}
	return next, causes
}

// predict returns what the server stores if it accepts the step: computed
// locally for update and merge patch, by a dry run on the twin for apply.
// When the twin refuses the dry run as invalid, the request is invalid
// whatever the rules say, and predict returns the twin's causes instead.
func (d *driver) predict(t *testing.T, ctx context.Context, w write, s step, st state) (map[string]interface{}, []string, bool) {
	t.Helper()
	if w.m != apply {
		p, err := w.k.predict(w.m, s.sub, st.cur, s.intent)
		if err != nil {
			t.Errorf("%s: predicting the stored object: %v", w, err)
		}
		return p, nil, err == nil
	}
	dry, err := w.k.twin.write(ctx, d.c, w.m, s.sub, st.twin, s.intent, true)
	if err == nil {
		return w.k.fromTwin(dry), nil, true
	}
	if causes, ok := invalidCauses(err); ok {
		return nil, causes, true
	}
	t.Errorf("%s: dry run on the twin failed: %v\nintent %s", w, err, js(s.intent))
	return nil, nil, false
}

// rulesSkipped is the cause the apiserver adds when schema errors keep it
// from running the CRD's rules (hasBlockingErr in its custom resource
// strategy); the twin has no rules to skip.
const rulesSkipped = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

func withoutSkippedRules(causes []string) []string {
	var out []string
	for _, c := range causes {
		if c != rulesSkipped {
			out = append(out, c)
		}
	}
	return out
}

// sameRefusal requires the server to refuse a request that the twin
// refused, with the same causes. Server-side apply refuses some updates of
// custom resources by itself: an applied empty object whose fields the
// applier owned before becomes null, which the schema rejects
// (kubernetes/kubernetes#117447).
func (d *driver) sameRefusal(t *testing.T, w write, twinCauses []string, err error) {
	t.Helper()
	d.stats.count(w.k.name, w.m, w.label, refused)
	causes, ok := invalidCauses(err)
	if err == nil || !ok {
		t.Errorf("%s: the twin refused the request (%q), the server answered %v", w, twinCauses, err)
		return
	}
	if causes = withoutSkippedRules(causes); !reflect.DeepEqual(causes, twinCauses) {
		t.Errorf("%s: the server and the twin refused the request for different reasons\nserver %q\ntwin   %q", w, causes, twinCauses)
	}
}

// fromTwin is an object of the twin as the kind would hold it: without
// metadata, in the kind's API group.
func (k *kind) fromTwin(obj *unstructured.Unstructured) map[string]interface{} {
	out := withoutMetadata(obj.Object)
	out["apiVersion"] = k.apiVersion
	return out
}
