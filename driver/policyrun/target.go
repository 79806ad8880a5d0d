package policyrun

import (
	"fmt"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/plan"
)

// targetError is a kind of policy that a CRD needs and its target
// Kubernetes version does not serve (policy.ValidatingSince,
// policy.MutatingSince): writing it would give the user a file the
// cluster refuses, so the run fails naming the target and the flag.
func targetError(kind string, target plan.KubeVersion, o Options) error {
	since, what, other := policy.ValidatingSince, "ValidatingAdmissionPolicy", ""
	if kind == policy.KindNormalize {
		since, what = policy.MutatingSince, "MutatingAdmissionPolicy"
		if o.Validate && !target.Less(policy.ValidatingSince) {
			other = ", or --normalize=false to write the validating policies alone"
		}
	}
	if !target.Less(since) {
		return nil
	}
	need := "to enforce the declarations"
	if kind == policy.KindNormalize {
		need = "to normalize the unions"
	}
	return fmt.Errorf("the target is Kubernetes %s, whose apiserver has no %s %s (admissionregistration.k8s.io/v1 serves it, on by default, from %s): give --kube-version %s or later%s",
		target, what, need, since, since, other)
}
