package admit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
)

func jsonPatch(expr string) admissionregistrationv1.Mutation {
	return admissionregistrationv1.Mutation{PatchType: admissionregistrationv1.PatchTypeJSONPatch,
		JSONPatch: &admissionregistrationv1.JSONPatch{Expression: expr}}
}

func testPolicy(muts ...admissionregistrationv1.Mutation) *admissionregistrationv1.MutatingAdmissionPolicy {
	p := &admissionregistrationv1.MutatingAdmissionPolicy{}
	p.Name = "test"
	p.Spec.Mutations = muts
	p.Spec.MatchConditions = []admissionregistrationv1.MatchCondition{{Name: "not-ops", Expression: "request.userInfo.username != 'ops'"}}
	return p
}

func request(op admission.Operation, user user.Info) Request {
	obj := map[string]interface{}{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w", "namespace": "default"},
		"spec":     map[string]interface{}{"a": "x"}}
	return Request{Operation: op, Resource: schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"},
		Kind: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, Namespace: "default", Object: obj, User: user}
}

// TestMutate: mutations run in order, each on what the one before left,
// the match condition sees the user, and the request's object is not
// modified.
func TestMutate(t *testing.T) {
	m, err := Mutating(testPolicy(
		jsonPatch(`[JSONPatch{op: 'add', path: '/spec/b', value: object.spec.a + '!'}]`),
		jsonPatch(`'b' in object.spec ? [JSONPatch{op: 'remove', path: '/spec/a'}] : []`),
	))
	if err != nil {
		t.Fatal(err)
	}
	r := request(admission.Create, nil)
	res, err := m.Mutate(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Object["spec"])
	if !res.Matched || string(got) != `{"b":"x!"}` || len(res.Costs) != 2 {
		t.Errorf("Mutate = matched %v, spec %s, costs %v; want matched, {\"b\":\"x!\"}, two costs", res.Matched, got, res.Costs)
	}
	if r.Object["spec"].(map[string]interface{})["a"] != "x" {
		t.Errorf("the request's object was modified: %v", r.Object)
	}
	res, err = m.Mutate(context.Background(), request(admission.Update, &user.DefaultInfo{Name: "ops"}))
	if err != nil || res.Matched {
		t.Errorf("Mutate by ops = %v, %v; want no match", res, err)
	}
}

// TestMutatingErrors: compilation errors of every expression, and
// mutations this package does not evaluate, are reported at once.
func TestMutatingErrors(t *testing.T) {
	p := testPolicy(jsonPatch(`[JSONPatch{op: 'remove', path: 1}]`), admissionregistrationv1.Mutation{PatchType: admissionregistrationv1.PatchTypeApplyConfiguration})
	p.Spec.MatchConditions[0].Expression = "request.nosuch"
	_, err := Mutating(p)
	if err == nil {
		t.Fatal("Mutating accepted a policy that does not compile")
	}
	for _, want := range []string{"policy test", "mutation 0", "mutation 1: only JSONPatch mutations", "nosuch"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Mutating = %v, want it to mention %q", err, want)
		}
	}
}
