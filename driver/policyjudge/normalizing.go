package policyjudge

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/verifyrun"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/verify"
)

// Normalizer returns what the normalizing policy n makes of a request on
// the version n.Version of the declared CRD, evaluated in process with the
// apiserver's mutating-policy code: the object it leaves, which
// verifyrun holds to the reference normalizer. Each request is a create
// of its new object, or an update from its old one, in the namespace
// default.
func Normalizer(declared map[string]interface{}, n policy.Normalizer) (verifyrun.Normalization, error) {
	c, err := crd.Read(declared)
	if err != nil {
		return nil, err
	}
	m, err := admit.Mutating(n.Policy)
	if err != nil {
		return nil, fmt.Errorf("version %s: the policy does not compile: %w", n.Version, err)
	}
	gvk := schema.GroupVersionKind{Group: c.Group, Version: n.Version, Kind: c.Kind}
	request := admit.Request{Resource: schema.GroupVersionResource{Group: c.Group, Version: n.Version, Resource: c.Plural}, Kind: gvk, Namespace: "default"}
	return func(old, new, _ map[string]interface{}) (map[string]interface{}, error) {
		r := request
		r.Operation, r.Object, r.OldObject = admission.Create, runtime.DeepCopyJSON(new), old
		if old != nil {
			r.Operation = admission.Update
		}
		res, err := m.Mutate(context.Background(), r)
		if err != nil {
			return nil, err
		}
		return res.Object, nil
	}, nil
}

// InProcess are the judges of verify --policy, --against-policy and
// --normalize without --server: the policies evaluated in this process by
// the apiserver's admission-policy code.
type InProcess struct{}

var _ verifyrun.PolicyJudges = InProcess{}

// NewPolicyJudge is PolicyJudge.
func (InProcess) NewPolicyJudge(policies []policy.ValidatingPolicy) func(verify.Target) (verify.Judge, error) {
	return PolicyJudge(policies)
}

// NewNormalizer is Normalizer.
func (InProcess) NewNormalizer(declared map[string]interface{}, n policy.Normalizer) (verifyrun.Normalization, error) {
	return Normalizer(declared, n)
}
