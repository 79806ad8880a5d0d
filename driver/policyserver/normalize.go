package policyserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/apiserver"
	"github.com/mut2cel/mut2cel/verify"
)

// A Normalization sends one request through the server and returns the
// object it stored; want is what the request should store (the reference
// normalizer's), read only when the server refuses the request. See
// NewNormalizer.
type Normalization = func(old, new, want map[string]interface{}) (map[string]interface{}, error)

// NewNormalizer installs the version n.Version of the declared CRD as
// published (its own rules, none the declarations would add) with the
// normalizing policy n, retargeted as NewPolicyJudge retargets its
// policies, and returns what sends a request to it: new created, when old
// is nil, or old created as the old writer, whom the policy leaves alone,
// and updated to new. It returns the object the server stored, with the
// apiVersion, kind, name and namespace of new: the mutating plugin ran the
// policy, then the server defaulted, validated and stored the result, as
// a kube-apiserver does.
//
// A refused request is sent again, with want as its object, to a copy of
// the CRD that no policy matches: when that copy refuses it too, the
// server refuses what the policy should make whatever the policy does,
// and the error wraps verify.ErrInvalidPair; otherwise the policy made
// the request fail, and the error says how. A server that does not
// answer is a *verify.JudgeError.
func (s *Server) NewNormalizer(declared map[string]interface{}, n policy.Normalizer) (Normalization, error) {
	published, err := crd.Published(declared)
	if err != nil {
		return nil, err
	}
	c, err := crd.Read(published)
	if err != nil {
		return nil, err
	}
	prepare := func(judged string) error {
		return s.InstallPolicies(context.Background(), retargetedNormalizer(n, c.Group, judged)...)
	}
	w, err := s.NewWriter(verify.Target{CRD: published, Version: n.Version}, apiserver.JudgeOptions{Prepare: prepare, CreateAs: &oldWriter})
	if err != nil {
		return nil, &verify.JudgeError{Version: n.Version, Err: err}
	}
	if err := waitTypeConverter(w); err != nil {
		return nil, &verify.JudgeError{Version: n.Version, Err: err}
	}
	return func(old, new, want map[string]interface{}) (map[string]interface{}, error) {
		got, err := w.Write(old, new)
		if err == nil {
			return restored(got, new), nil
		}
		return nil, normalizationError(w, n.Version, old, want, err)
	}, nil
}

// normalizationError reads the error of a request as NewNormalizer says.
func normalizationError(w *apiserver.Writer, version string, old, want map[string]interface{}, err error) error {
	var status apierrors.APIStatus
	switch {
	case errors.Is(err, verify.ErrInvalidPair):
		return err
	case !errors.As(err, &status):
		return &verify.JudgeError{Version: version, Err: err}
	}
	plain := w.Plain(old, want)
	switch {
	case plain == nil:
		return fmt.Errorf("the server refused the request: %v", err)
	case errors.Is(plain, verify.ErrInvalidPair):
		return plain
	}
	return &verify.JudgeError{Version: version, Err: plain}
}

// waitTypeConverter waits until the mutating plugin has the type
// converter of the CRD a Writer installed: it builds one from the
// server's OpenAPI v3 document of the CRD's group version, and reads the
// list of those documents every five seconds; until then it fails every
// request a policy matches as unavailable. A dry-run create of an empty
// object is sent until the server answers it otherwise.
func waitTypeConverter(w *apiserver.Writer) error {
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, probeTimeout, true, func(context.Context) (bool, error) {
		return !apierrors.IsServiceUnavailable(w.Try(map[string]interface{}{})), nil
	})
	if err != nil {
		return fmt.Errorf("the MutatingAdmissionPolicy plugin does not read the schema of the new CRD after %s: %w", probeTimeout, err)
	}
	return nil
}

// serverSet are the metadata fields the server sets on what it stores.
var serverSet = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"}

// restored is the stored object got as the request's object new would
// show it: new's apiVersion, kind, name and namespace, without the
// metadata the server sets. Any other metadata stays, for a policy that
// writes some to show.
func restored(got, new map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(got))
	for k, v := range got {
		out[k] = v
	}
	out["apiVersion"], out["kind"] = new["apiVersion"], new["kind"]
	md := map[string]interface{}{}
	if m, ok := got["metadata"].(map[string]interface{}); ok {
		for k, v := range m {
			md[k] = v
		}
	}
	for _, k := range serverSet {
		delete(md, k)
	}
	delete(md, "name")
	delete(md, "namespace")
	if m, ok := new["metadata"].(map[string]interface{}); ok {
		for _, k := range []string{"name", "namespace"} {
			if v, ok := m[k]; ok {
				md[k] = v
			}
		}
	}
	out["metadata"] = md
	return out
}

// retargetedNormalizer returns copies of n's policy and binding, named
// for the judged group, that match it where they matched group, and leave
// the requests of oldWriter alone.
func retargetedNormalizer(n policy.Normalizer, group, judged string) []runtime.Object {
	pol := n.Policy.DeepCopy()
	b := &admissionregistrationv1.MutatingAdmissionPolicyBinding{}
	if n.Binding != nil {
		b = n.Binding.DeepCopy()
	}
	suffix := "-" + judgedSuffix(judged, group)
	pol.Name += suffix
	b.Name = pol.Name
	b.Spec.PolicyName = pol.Name
	retarget(pol.Spec.MatchConstraints, group, judged)
	retarget(b.Spec.MatchResources, group, judged)
	pol.Spec.MatchConditions = append(pol.Spec.MatchConditions, oldWriterExempt())
	return []runtime.Object{pol, b}
}
