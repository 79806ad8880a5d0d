package reference_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/plan"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/declread"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// normalizers holds, for one served version of a CRD, the two sides of
// the normalization: the reference (the checker) and the policy
// mut2cel writes, run by the apiserver's mutating-policy code.
type normalizers struct {
	version  string
	checker  *reference.Checker
	policy   *admit.Mutator // nil when the back end refused the version
	refusal  error          // the back end's refusal
	resource schema.GroupVersionResource
	kind     schema.GroupVersionKind
	costs    []int64 // the highest runtime cost of each mutation so far
}

// versionNormalizers builds both sides for every served version of doc,
// whose plan is p; the back end is asked for each version alone, so that
// a refused version leaves the others testable.
func versionNormalizers(t *testing.T, doc map[string]interface{}, p *plan.Plan) []*normalizers {
	t.Helper()
	declared, err := declread.CRD(doc, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := crdmodel.Read(declared)
	if err != nil {
		t.Fatal(err)
	}
	var out []*normalizers
	for _, v := range p.Versions {
		if !v.Served {
			continue
		}
		dv, _ := c.Version(v.Name)
		checker, err := reference.NewChecker(dv.Raw)
		if err != nil {
			t.Fatalf("version %s: %v", v.Name, err)
		}
		n := &normalizers{version: v.Name, checker: checker,
			resource: schema.GroupVersionResource{Group: p.Resource.Group, Version: v.Name, Resource: p.Resource.Plural},
			kind:     schema.GroupVersionKind{Group: p.Resource.Group, Version: v.Name, Kind: p.Resource.Kind}}
		one := *p
		one.Versions = []plan.Version{v}
		pols, err := policy.Normalizing(&one, policy.Options{})
		var refusal *policy.Error
		switch {
		case errors.As(err, &refusal):
			n.refusal = err
		case err != nil:
			t.Fatalf("version %s: %v", v.Name, err)
		case len(pols) == 1:
			m, err := admit.Mutating(pols[0].Policy)
			if err != nil {
				t.Fatalf("version %s: the policy does not compile: %v\n%s", v.Name, err, mustRender(t, pols[0]))
			}
			n.policy = m
		}
		out = append(out, n)
	}
	return out
}

func mustRender(t *testing.T, n policy.Normalizer) string {
	data, err := policy.Render(n.Policy, n.Binding)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// both normalizes new against old (nil: a create) on both sides and
// returns the results as JSON, the reference's first; an error of the
// policy is returned as such.
func (n *normalizers) both(old, new map[string]interface{}) (ref, pol string, err error) {
	want, err := n.checker.Normalize(old, new)
	if err != nil {
		return "", "", fmt.Errorf("reference: %w", err)
	}
	got, err := n.mutate(old, new)
	if err != nil {
		return jsonText(want), "", fmt.Errorf("policy: %w", err)
	}
	return jsonText(want), jsonText(got), nil
}

func (n *normalizers) mutate(old, new map[string]interface{}) (map[string]interface{}, error) {
	r := admit.Request{Operation: admission.Create, Resource: n.resource, Kind: n.kind, Namespace: "default", Object: new, OldObject: old}
	if old != nil {
		r.Operation = admission.Update
	}
	res, err := n.policy.Mutate(context.Background(), r)
	if err != nil {
		return nil, err
	}
	for i, c := range res.Costs {
		if i >= len(n.costs) {
			n.costs = append(n.costs, 0)
		}
		n.costs[i] = max(n.costs[i], c)
	}
	return res.Object, nil
}

// resource gives obj what the apiserver gives every object before
// admission: apiVersion, kind and a name in a namespace. A schema's own
// metadata is replaced.
func (n *normalizers) object(obj map[string]interface{}) map[string]interface{} {
	if obj == nil {
		return nil
	}
	obj["apiVersion"] = n.kind.GroupVersion().String()
	obj["kind"] = n.kind.Kind
	obj["metadata"] = map[string]interface{}{"name": "x", "namespace": "default"}
	return obj
}

func jsonText(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(data)
}

func translateNoPanic(doc map[string]interface{}, opts translate.Options) (res *translate.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("translate panicked: %v", r)
			res = nil
		}
	}()
	return translate.Translate(doc, opts)
}

// planOf compiles doc, failing the test on a refusal.
func planOf(t *testing.T, doc map[string]interface{}) *plan.Plan {
	t.Helper()
	p, err := translate.Compile(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
