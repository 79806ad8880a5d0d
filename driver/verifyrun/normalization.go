package verifyrun

import (
	"encoding/json"
	"errors"
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/pairgen"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// NormalizationReport is what NormalizationJob.Verify found for one
// version: a normalizing policy, run in process or through a server, held
// to the reference normalizer (Checker.Normalize, semantics.md 11.7) on
// generated pairs, each as a create and as an update, in the stored form
// the apiserver gives admission.
type NormalizationReport struct {
	Version string
	// Pairs were generated; each is judged as a create of its new object
	// and as an update, so Requests is twice Pairs.
	Pairs, Requests int
	// Changed counts the requests the reference normalized into another
	// object; Disagreements those on which the policy's object differs
	// from the reference's, or the policy failed.
	Changed, Disagreements int
	// SetAside counts the requests a server (verify --normalize --server)
	// refuses whatever the policy does: its schema or the CRD's own rules
	// refuse the old object or the reference's. In process, none.
	SetAside int
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

// A Normalization is what a normalizing policy makes of one request: the
// object it leaves, given the request's new object and, for an update,
// its old one. want is the reference's object, for a judge that must tell
// a failing policy from a request refused whatever the policy does (an
// error wrapping verify.ErrInvalidPair). An error that is a
// *verify.JudgeError stops the run; any other is the policy's failure.
type Normalization = func(old, new, want map[string]interface{}) (map[string]interface{}, error)

// verify compares the reference and n.mutate on pairs generated with
// seed.
func (n *normalization) verify(pairs int, seed int64) (*NormalizationReport, error) {
	rep := &NormalizationReport{Version: n.version}
	g := pairgen.NewFor(n.s, seed, n.checker)
	for i := 1; i <= pairs; i++ {
		old, new, err := n.storable(g)
		if err != nil {
			return nil, err
		}
		rep.Pairs++
		for _, o := range []map[string]interface{}{nil, old} {
			if err := n.compare(rep, i, o, new); err != nil {
				return nil, err
			}
		}
	}
	return rep, nil
}

// normalization is what NormalizationJob.Verify holds side by side for one
// version: the reference and the policy, in process or through a server.
type normalization struct {
	version string
	checker *reference.Checker
	s       *structuralschema.Structural
	mutate  Normalization
	// objects validates an object as the server creates it, by the
	// schema and the rules of the CRD as published (storable).
	objects *kube.ObjectValidator
	gvk     schema.GroupVersionKind
}

func newNormalization(declared map[string]interface{}, version string) (*normalization, error) {
	c, err := crd.Read(declared)
	if err != nil {
		return nil, err
	}
	v, ok := c.Version(version)
	if !ok || v.Raw == nil {
		return nil, fmt.Errorf("version %s: no schema", version)
	}
	n := &normalization{version: version, gvk: schema.GroupVersionKind{Group: c.Group, Version: version, Kind: c.Kind}}
	if n.checker, err = reference.NewChecker(v.Raw); err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	if n.s, err = v.Structural(); err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	if n.objects, err = publishedValidator(declared, version); err != nil {
		return nil, fmt.Errorf("version %s: %w", version, err)
	}
	return n, nil
}

// publishedValidator validates objects of the version of declared as
// published: its schema and its own rules, none the declarations add.
func publishedValidator(declared map[string]interface{}, version string) (*kube.ObjectValidator, error) {
	doc, err := crd.Published(declared)
	if err != nil {
		return nil, err
	}
	c, err := crd.Read(doc)
	if err != nil {
		return nil, err
	}
	v, ok := c.Version(version)
	if !ok {
		return nil, fmt.Errorf("no version %s", version)
	}
	props, err := v.Schema()
	if err != nil {
		return nil, err
	}
	return kube.NewObjectValidator(props)
}

// storable returns the next pair of g, admitted, mended as verify mends
// the pairs the apiserver refuses (pairgen's Repair), until its old object
// is one the server can hold and the reference's update of it to the new
// one an object the server can store: a request the server refuses
// whatever the policy does says nothing of the policy, and a server sets
// it aside. After pairgen.RepairRounds mends the pair is kept as it is.
func (n *normalization) storable(g *pairgen.Generator) (old, new map[string]interface{}, err error) {
	rawOld, rawNew := g.Next()
	var last *pairgen.Mend
	for round := 0; ; round++ {
		if old, err = n.admitted(rawOld); err != nil {
			return nil, nil, err
		}
		if new, err = n.admitted(rawNew); err != nil {
			return nil, nil, err
		}
		which, f := n.refused(old, new)
		if which == "" && last != nil {
			g.Passed(*last)
		}
		if which == "" || round == pairgen.RepairRounds {
			return old, new, nil
		}
		m := g.Repair(rawOld, rawNew, which, f, round)
		rawOld, rawNew, last = m.Old, m.New, &m
	}
}

// refused names the object the server refuses of an admitted pair ("old",
// or "new" when it refuses the reference's update to new) and the field
// of the first of its errors; "" when it refuses neither.
func (n *normalization) refused(old, new map[string]interface{}) (which, at string) {
	if errs := n.objects.Validate(old); len(errs) > 0 {
		return "old", firstField(errs)
	}
	want, err := n.checker.Normalize(old, new)
	if err != nil {
		return "", ""
	}
	if errs := n.objects.Validate(want); len(errs) > 0 {
		return "new", firstField(errs)
	}
	return "", ""
}

// firstField is the field of the error first in the order of their
// messages: the validators list errors in Go map order.
func firstField(errs field.ErrorList) string {
	first := errs[0]
	for _, e := range errs[1:] {
		if e.Error() < first.Error() {
			first = e
		}
	}
	return first.Field
}

// admitted is obj as the apiserver gives it to admission: stored, read
// back from JSON, with apiVersion, kind and a name in a namespace.
func (n *normalization) admitted(obj map[string]interface{}) (map[string]interface{}, error) {
	out, err := kube.RoundTrip(kube.Store(n.s, obj))
	if err != nil {
		return nil, err
	}
	out["apiVersion"], out["kind"] = n.gvk.GroupVersion().String(), n.gvk.Kind
	out["metadata"] = map[string]interface{}{"name": "x", "namespace": "default"}
	return out, nil
}

// compare normalizes the request of pair i that creates new (old nil) or
// updates old to it on both sides, and adds it to rep.
func (n *normalization) compare(rep *NormalizationReport, i int, old, new map[string]interface{}) error {
	rep.Requests++
	want, err := n.checker.Normalize(old, new)
	if err != nil {
		return fmt.Errorf("version %s: %w", n.version, err)
	}
	if !sameText(want, new) {
		rep.Changed++
	}
	got, err := n.mutate(old, new, want)
	var jerr *verify.JudgeError
	switch {
	case errors.As(err, &jerr):
		return err
	case errors.Is(err, verify.ErrInvalidPair):
		rep.SetAside++
		return nil
	case err == nil && sameText(want, got):
		return nil
	}
	rep.Disagreements++
	if rep.First == nil {
		rep.First = &NormalizationCounterexample{Pair: i, Old: old, New: new, Reference: want, Policy: got}
		if err != nil {
			rep.First.Err = err.Error()
		}
	}
	return nil
}

// sameText reports whether a and b write the same JSON: the policy's
// object comes back from a JSON patch, whose numbers may be of another
// Go type than the reference's.
func sameText(a, b map[string]interface{}) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(x) == string(y)
}
