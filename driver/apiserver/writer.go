package apiserver

import (
	"context"
	"fmt"
	"sync/atomic"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/rest"

	"github.com/mut2cel/mut2cel/verify"
)

// A Writer sends requests for objects of one version of a CRD, installed
// by NewWriter, and returns what the server stored: for what admission
// plugins make of a request rather than whether they allow it (the
// normalizing policies of driver/policyserver). A Writer is safe for
// concurrent use: every request has an object of its own.
type Writer struct {
	// real is the CRD as given; plain the same in another group, which
	// what JudgeOptions.Prepare sets up does not name; creator writes the
	// old objects of real, as JudgeOptions.CreateAs.
	real, plain, creator *resource
	n                    atomic.Int64
}

// NewWriter installs the target version of the CRD, in a group of its own
// as NewJudgeWith does, and a copy of it in another group, with its rules,
// and returns their Writer. o.Prepare and o.CreateAs are those of
// NewJudgeWith; o.Causes is not read.
func (s *Server) NewWriter(t verify.Target, o JudgeOptions) (*Writer, error) {
	n := s.judges.Add(1)
	crd, err := judgedCRD(t.CRD, t.Version, fmt.Sprintf("j%d", n))
	if err != nil {
		return nil, err
	}
	w := &Writer{}
	if w.real, w.creator, err = s.resources(crd, o.CreateAs); err != nil {
		return nil, err
	}
	if w.plain, err = newResource(s.Config, regrouped(crd, "plain")); err != nil {
		return nil, err
	}
	if o.Prepare != nil {
		if err := o.Prepare(crd.Spec.Group); err != nil {
			return nil, err
		}
	}
	if err := install(context.Background(), s.Config, w.real, w.plain); err != nil {
		return nil, err
	}
	return w, nil
}

// resources returns the resource of crd, and the same written as the
// user createAs, when set.
func (s *Server) resources(crd *apiextensionsv1.CustomResourceDefinition, createAs *rest.ImpersonationConfig) (real, creator *resource, err error) {
	if real, err = newResource(s.Config, crd); err != nil {
		return nil, nil, err
	}
	if createAs == nil {
		return real, real, nil
	}
	c := rest.CopyConfig(s.Config)
	c.Impersonate = *createAs
	creator, err = newResource(c, crd)
	return real, creator, err
}

// Write creates new, when old is nil, or creates old as the Writer's
// creator and updates it to new, and returns the object the server
// answered with: what storage wrote, read back. The object is then
// deleted. An error of the request itself is the server's, unwrapped
// (an apierrors.APIStatus when it answered); a refused old object wraps
// verify.ErrInvalidPair.
func (w *Writer) Write(old, new map[string]interface{}) (map[string]interface{}, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	name := fmt.Sprintf("w%d", w.n.Add(1))
	if old == nil {
		raw, err := w.real.post(ctx, name, new, false)
		if err != nil {
			return nil, err
		}
		defer w.real.delete(ctx, name)
		return decoded(raw)
	}
	rv, err := w.creator.create(ctx, name, old)
	if err != nil {
		return nil, refusal("creating the old object", err)
	}
	defer w.real.delete(ctx, name)
	raw, err := w.real.put(ctx, name, rv, new, false)
	if err != nil {
		return nil, err
	}
	return decoded(raw)
}

// Plain sends the request of Write to the copy in the other group as a
// dry run, and returns nil when the server accepts it there: what it
// refuses there it refuses for the CRD's schema or rules, whatever
// Prepare set up. A refusal wraps verify.ErrInvalidPair.
func (w *Writer) Plain(old, new map[string]interface{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	name := fmt.Sprintf("w%d", w.n.Add(1))
	if old == nil {
		_, err := w.plain.post(ctx, name, new, true)
		return refusalOrNil("creating the object", err)
	}
	rv, err := w.plain.create(ctx, name, old)
	if err != nil {
		return refusal("creating the old object", err)
	}
	defer w.plain.delete(ctx, name)
	_, err = w.plain.put(ctx, name, rv, new, true)
	return refusalOrNil("updating the object", err)
}

// Try creates obj as a dry run and returns the server's error.
func (w *Writer) Try(obj map[string]interface{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	_, err := w.real.post(ctx, fmt.Sprintf("w%d", w.n.Add(1)), obj, true)
	return err
}

func refusalOrNil(what string, err error) error {
	if err == nil {
		return nil
	}
	return refusal(what, err)
}

// decoded reads an object the server wrote as JSON, its integers as
// int64, as the apiserver reads it.
func decoded(raw []byte) (map[string]interface{}, error) {
	var out map[string]interface{}
	if err := utiljson.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("reading the stored object: %w", err)
	}
	return out, nil
}

// post creates object name from obj and returns the server's answer.
func (r *resource) post(ctx context.Context, name string, obj map[string]interface{}, dryRun bool) ([]byte, error) {
	body, err := r.body(name, "", obj)
	if err != nil {
		return nil, err
	}
	req := r.request(r.client.Post()).Body(body)
	if dryRun {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	return req.Do(ctx).Raw()
}

// put replaces object name, held at resourceVersion rv, with obj and
// returns the server's answer.
func (r *resource) put(ctx context.Context, name, rv string, obj map[string]interface{}, dryRun bool) ([]byte, error) {
	body, err := r.body(name, rv, obj)
	if err != nil {
		return nil, err
	}
	req := r.request(r.client.Put()).Name(name).Body(body)
	if dryRun {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	return req.Do(ctx).Raw()
}
