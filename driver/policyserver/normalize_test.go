package policyserver

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// normalizedSchema has a union with a discriminator, which its
// MutatingAdmissionPolicy normalizes (docs/semantics.md 11.7).
const normalizedSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      backend:
        type: object
        x-kubernetes-unions:
        - discriminator: type
          fields-to-discriminateBy: {service: Service, url: URL}
        properties:
          type: {type: string, maxLength: 8}
          service: {type: string, maxLength: 16}
          url: {type: string, maxLength: 16}
`

// TestNormalizer sends requests through the shared server, whose
// MutatingAdmissionPolicy plugin runs the normalizing policy mut2cel
// writes for normalizedSchema, and wants stored what the reference
// normalizer makes of each; the same policy broken must store something
// else. Old objects are created untouched, as the old writer.
func TestNormalizer(t *testing.T) {
	t.Parallel()
	doc := testcrd.WithSchema(t, normalizedSchema)
	n := normalizerOf(t, doc)
	checker := referenceOf(t, doc)
	broken := n
	broken.Policy = n.Policy.DeepCopy()
	m := &broken.Policy.Spec.Mutations[0]
	m.JSONPatch.Expression = strings.ReplaceAll(m.JSONPatch.Expression, "'Service'", "'URL'")
	if m.JSONPatch.Expression == n.Policy.Spec.Mutations[0].JSONPatch.Expression {
		t.Fatal("the policy has no 'Service' to break")
	}
	// Each normalizer waits for the server to apply its policy: both
	// wait at once.
	var good, bad Normalization
	var goodErr, badErr error
	var wg sync.WaitGroup
	wg.Go(func() { good, goodErr = shared.NewNormalizer(doc, n) })
	wg.Go(func() { bad, badErr = shared.NewNormalizer(doc, broken) })
	wg.Wait()
	if err := errors.Join(goodErr, badErr); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, old, new, want string }{
		{"a create sets the discriminator", ``, `{service: s}`, `{type: Service, service: s}`},
		{"an update switches member with the discriminator", `{type: Service, service: s}`, `{type: URL, service: s, url: u}`, `{type: URL, url: u}`},
		{"an update adds a member without the discriminator", `{type: URL, url: u}`, `{type: URL, url: u, service: s}`, `{type: Service, service: s}`},
		{"nothing changes", `{type: URL, url: u}`, `{type: URL, url: u}`, `{type: URL, url: u}`},
	} {
		old, new := admittedBackend(t, c.old), admittedBackend(t, c.new)
		want, err := checker.Normalize(old, new)
		if err != nil {
			t.Fatal(err)
		}
		if text(t, want) != text(t, admittedBackend(t, c.want)) {
			t.Fatalf("%s: the reference makes %s, the test wants %s", c.what, text(t, want), c.want)
		}
		got, err := good(old, new, want)
		if err != nil || text(t, got) != text(t, want) {
			t.Errorf("%s: the server stored %s, %v; want %s", c.what, text(t, got), err, text(t, want))
		}
		if c.what == "a create sets the discriminator" {
			if got, err := bad(old, new, want); err == nil && text(t, got) == text(t, want) {
				t.Errorf("%s: the broken policy stored %s too", c.what, text(t, got))
			}
		}
	}
}

func normalizerOf(t *testing.T, doc map[string]interface{}) policy.Normalizer {
	t.Helper()
	p, err := translate.Compile(doc, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := policy.Normalizing(p, policy.Options{})
	if err != nil || len(ns) != 1 {
		t.Fatalf("%d normalizing policies, %v; want 1", len(ns), err)
	}
	return ns[0]
}

func referenceOf(t *testing.T, doc map[string]interface{}) *reference.Checker {
	t.Helper()
	c, err := crdmodel.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	checker, err := reference.NewChecker(c.Versions[0].Raw)
	if err != nil {
		t.Fatal(err)
	}
	return checker
}

// admittedBackend is the object whose spec.backend is backend, written as
// YAML, as the server reads it; "" is nil.
func admittedBackend(t *testing.T, backend string) map[string]interface{} {
	t.Helper()
	if backend == "" {
		return nil
	}
	obj := stored(t, "{spec: {backend: "+backend+"}}")
	obj["apiVersion"], obj["kind"] = "example.com/v1", "Widget"
	obj["metadata"] = map[string]interface{}{"name": "x", "namespace": "default"}
	return obj
}

func text(t *testing.T, obj map[string]interface{}) string {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRestored checks that a stored object is compared as the request's:
// the judged group's apiVersion, the server's metadata and the judge's
// name and namespace give way to the request's, and any other metadata
// stays, to show.
func TestRestored(t *testing.T) {
	request := map[string]interface{}{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "x", "namespace": "default"},
		"spec":     map[string]interface{}{"a": int64(1)},
	}
	got := map[string]interface{}{
		"apiVersion": "j3.example.com/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w7", "namespace": "mut2cel", "uid": "u", "resourceVersion": "12",
			"generation": int64(1), "creationTimestamp": "2026-11-28T00:00:00Z", "managedFields": []interface{}{}},
		"spec": map[string]interface{}{"a": int64(1)},
	}
	if r := restored(got, request); text(t, r) != text(t, request) {
		t.Errorf("restored = %s, want %s", text(t, r), text(t, request))
	}
	got["metadata"].(map[string]interface{})["labels"] = map[string]interface{}{"set": "by a policy"}
	if r := restored(got, request); !strings.Contains(text(t, r), `"labels":{"set":"by a policy"}`) {
		t.Errorf("restored = %s, want the labels kept", text(t, r))
	}
}
