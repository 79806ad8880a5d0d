package apiserver

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/mut2cel/mut2cel/verify"
)

// requestTimeout bounds the requests of one judged pair.
const requestTimeout = time.Minute

// judge decides updates through the server: it creates the old object,
// then updates it to the new one. A refused update is replayed as a dry
// run on a copy of the CRD without rules; if that copy refuses it too, the
// server refused the pair for other reasons than the rules. A judge is
// safe for concurrent use: every pair has an object of its own.
type judge struct {
	real, bare *resource // the CRD as given, and without rules
	pairs      atomic.Int64
	// creator writes the old objects: real, or the same resource as the
	// user of JudgeOptions.CreateAs.
	creator *resource
	causes  func(error) ([]string, bool) // reads a refused update
}

// NewJudge installs the target version of the CRD, and the same without
// rules, and returns a judge of updates of its objects. It fits
// verify.Options.NewJudge.
func (s *Server) NewJudge(t verify.Target) (verify.Judge, error) {
	return s.NewJudgeWith(t, JudgeOptions{})
}

// JudgeOptions change what a judge of NewJudgeWith does beside the rules
// of the CRD: for a judge of updates that admission plugins decide too.
type JudgeOptions struct {
	// Prepare, when set, is called with the API group the judged CRD is
	// installed in, before it is: to set up what admits its objects.
	Prepare func(group string) error
	// CreateAs, when set, is the user the old objects are created as, by
	// impersonation: one that what Prepare set up leaves alone.
	CreateAs *rest.ImpersonationConfig
	// Causes reads the details of an update the server refused, false
	// when it did not refuse it as invalid; nil reads the causes of the
	// CRD's rules, each as "field: message".
	Causes func(error) ([]string, bool)
}

// NewJudgeWith is NewJudge, changed by o.
func (s *Server) NewJudgeWith(t verify.Target, o JudgeOptions) (verify.Judge, error) {
	n := s.judges.Add(1)
	crd, err := judgedCRD(t.CRD, t.Version, fmt.Sprintf("j%d", n))
	if err != nil {
		return nil, err
	}
	bare := withoutRules(crd, "bare")
	j := &judge{causes: o.Causes}
	if j.causes == nil {
		j.causes = invalidCauses
	}
	if j.real, j.creator, err = s.resources(crd, o.CreateAs); err != nil {
		return nil, err
	}
	if j.bare, err = newResource(s.Config, bare); err != nil {
		return nil, err
	}
	if o.Prepare != nil {
		if err := o.Prepare(crd.Spec.Group); err != nil {
			return nil, err
		}
	}
	if err := install(context.Background(), s.Config, j.real, j.bare); err != nil {
		return nil, err
	}
	return j, nil
}

// Update implements verify.Judge. The objects it creates are deleted once
// judged.
func (j *judge) Update(old, new map[string]interface{}) (bool, []string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	name := fmt.Sprintf("p%d", j.pairs.Add(1))
	rv, err := j.creator.create(ctx, name, old)
	if err != nil {
		return false, nil, refusal("creating the old object", err)
	}
	defer j.real.delete(ctx, name)
	err = j.real.update(ctx, name, rv, new, false)
	if err == nil {
		return false, nil, nil
	}
	causes, ok := j.causes(err)
	if !ok {
		return false, nil, fmt.Errorf("updating the object: %w", err)
	}
	if err := j.withoutRules(ctx, name, old, new); err != nil {
		return false, nil, err
	}
	return true, causes, nil
}

// withoutRules replays the update on the CRD without rules: nil when that
// accepts it, so that the rules alone refused it.
func (j *judge) withoutRules(ctx context.Context, name string, old, new map[string]interface{}) error {
	rv, err := j.bare.create(ctx, name, old)
	if err != nil {
		return refusal("creating the old object without rules", err)
	}
	defer j.bare.delete(ctx, name)
	if err := j.bare.update(ctx, name, rv, new, true); err != nil {
		return refusal("updating the object without rules", err)
	}
	return nil
}

// refusal wraps a request error: verify.ErrInvalidPair when the server
// refused the request as invalid or malformed, the error itself when it
// did not answer.
func refusal(what string, err error) error {
	if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) {
		return fmt.Errorf("%s: %v: %w", what, err, verify.ErrInvalidPair)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// invalidCauses returns the causes of an Invalid status error, each as
// "field: message", which is how the apiserver's field errors print,
// sorted.
func invalidCauses(err error) ([]string, bool) {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Reason != metav1.StatusReasonInvalid {
		return nil, false
	}
	var out []string
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			out = append(out, c.Field+": "+c.Message)
		}
	}
	sort.Strings(out)
	return out, true
}
