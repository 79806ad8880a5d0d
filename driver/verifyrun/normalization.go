package verifyrun

import (
	"context"
	"encoding/json"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/pairgen"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// NormalizationReport is what verifyNormalization found for one version.
type NormalizationReport struct {
	Version string
	// Pairs were generated; each is judged as a create of its new object
	// and as an update, so Requests is twice Pairs.
	Pairs, Requests int
	// Changed counts the requests the reference normalized into another
	// object; Disagreements those on which the policy's object differs
	// from the reference's, or the policy failed.
	Changed, Disagreements int
	// First is the first disagreement, nil without one.
	First *NormalizationCounterexample
}

// NormalizationCounterexample is one request normalized otherwise by the
// policy than by the reference: Old is nil for a create.
type NormalizationCounterexample struct {
	Pair              int
	Old, New          map[string]interface{}
	Reference, Policy map[string]interface{}
	Err               string
}

// verifyNormalization holds the MutatingAdmissionPolicy p, evaluated by
// the apiserver's own mutating-policy code, to the reference normalizer
// (Checker.Normalize, semantics.md 11.7) on generated pairs of the
// version of the declared CRD, each as a create and as an update, in the
// stored form the apiserver gives admission. Like PolicyJudge it runs the
// apiserver's admission code on what a back end wrote, so it lives with
// the driver.
func verifyNormalization(declared map[string]interface{}, version string, p *admissionregistrationv1.MutatingAdmissionPolicy, pairs int, seed int64) (*NormalizationReport, error) {
	c, err := crd.Read(declared)
	if err != nil {
		return nil, err
	}
	v, ok := c.Version(version)
	if !ok || v.Raw == nil {
		return nil, fmt.Errorf("version %s: no schema", version)
	}
	checker, err := reference.NewChecker(v.Raw)
	if err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	s, err := v.Structural()
	if err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	m, err := admit.Mutating(p)
	if err != nil {
		return nil, fmt.Errorf("version %s: the policy does not compile: %w", version, err)
	}
	gvk := schema.GroupVersionKind{Group: c.Group, Version: version, Kind: c.Kind}
	request := admit.Request{Resource: schema.GroupVersionResource{Group: c.Group, Version: version, Resource: c.Plural}, Kind: gvk, Namespace: "default"}
	admitted := func(obj map[string]interface{}) (map[string]interface{}, error) {
		out, err := kube.RoundTrip(kube.Store(s, obj))
		if err != nil {
			return nil, err
		}
		out["apiVersion"], out["kind"] = gvk.GroupVersion().String(), gvk.Kind
		out["metadata"] = map[string]interface{}{"name": "x", "namespace": "default"}
		return out, nil
	}
	rep := &NormalizationReport{Version: version}
	g := pairgen.NewFor(s, seed, checker)
	for i := 1; i <= pairs; i++ {
		old, new := g.Next()
		if old, err = admitted(old); err != nil {
			return nil, err
		}
		if new, err = admitted(new); err != nil {
			return nil, err
		}
		rep.Pairs++
		for _, o := range []map[string]interface{}{nil, old} {
			rep.Requests++
			want, err := checker.Normalize(o, new)
			if err != nil {
				return nil, fmt.Errorf("version %s: %w", version, err)
			}
			if !sameText(want, new) {
				rep.Changed++
			}
			r := request
			r.Operation, r.Object, r.OldObject = admission.Create, runtime.DeepCopyJSON(new), o
			if o != nil {
				r.Operation = admission.Update
			}
			var got map[string]interface{}
			res, err := m.Mutate(context.Background(), r)
			if err == nil {
				got = res.Object
			}
			if err == nil && sameText(want, got) {
				continue
			}
			rep.Disagreements++
			if rep.First == nil {
				ce := &NormalizationCounterexample{Pair: i, Old: o, New: new, Reference: want, Policy: got}
				if err != nil {
					ce.Err = err.Error()
				}
				rep.First = ce
			}
		}
	}
	return rep, nil
}

// sameText reports whether a and b write the same JSON: the policy's
// object comes back from a JSON patch, whose numbers may be of another
// Go type than the reference's.
func sameText(a, b map[string]interface{}) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(x) == string(y)
}
