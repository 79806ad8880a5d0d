package apiserver

import (
	"context"
	"encoding/json"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// namespace holds the objects of every namespaced CRD a judge installs.
// This server has no namespace API and no namespace admission, so it need
// not be created.
const namespace = "mut2cel"

// Namespace is the namespace the judges write the objects of namespaced
// CRDs in: what an admission plugin that reads namespaces must know.
const Namespace = namespace

// resource writes objects of one installed CRD as JSON bodies the judge
// encodes itself: the dynamic client would turn a float that a client sent
// as 1.0 into 1.
type resource struct {
	crd        *apiextensionsv1.CustomResourceDefinition
	client     *rest.RESTClient
	plural     string
	namespaced bool
	apiVersion string
	kind       string
}

func newResource(config *rest.Config, crd *apiextensionsv1.CustomResourceDefinition) (*resource, error) {
	gv := schema.GroupVersion{Group: crd.Spec.Group, Version: crd.Spec.Versions[0].Name}
	c := rest.CopyConfig(config)
	c.GroupVersion = &gv
	c.APIPath = "/apis"
	c.ContentType = "application/json"
	// Only errors are decoded, as metav1.Status, which this scheme knows.
	c.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	client, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, err
	}
	return &resource{
		crd: crd, client: client, plural: crd.Spec.Names.Plural,
		namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		apiVersion: gv.String(), kind: crd.Spec.Names.Kind,
	}, nil
}

func (r *resource) request(req *rest.Request) *rest.Request {
	if r.namespaced {
		req = req.Namespace(namespace)
	}
	return req.Resource(r.plural)
}

// create creates object name from obj and returns its resourceVersion.
func (r *resource) create(ctx context.Context, name string, obj map[string]interface{}) (string, error) {
	body, err := r.body(name, "", obj)
	if err != nil {
		return "", err
	}
	res := r.request(r.client.Post()).Body(body).Do(ctx)
	if err := res.Error(); err != nil {
		return "", err
	}
	raw, _ := res.Raw()
	var created struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &created); err != nil {
		return "", fmt.Errorf("reading the created object: %w", err)
	}
	return created.Metadata.ResourceVersion, nil
}

// update replaces object name, held at resourceVersion rv, with obj.
func (r *resource) update(ctx context.Context, name, rv string, obj map[string]interface{}, dryRun bool) error {
	body, err := r.body(name, rv, obj)
	if err != nil {
		return err
	}
	req := r.request(r.client.Put()).Name(name).Body(body)
	if dryRun {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	return req.Do(ctx).Error()
}

func (r *resource) delete(ctx context.Context, name string) error {
	return r.request(r.client.Delete()).Name(name).Do(ctx).Error()
}

func (r *resource) list(ctx context.Context) error {
	return r.request(r.client.Get()).Param("limit", "1").Do(ctx).Error()
}

// body is obj as the request body for object name: the resource's
// apiVersion and kind, a metadata of its own, the rest of obj unchanged.
func (r *resource) body(name, rv string, obj map[string]interface{}) ([]byte, error) {
	out := make(map[string]interface{}, len(obj)+3)
	for k, v := range obj {
		out[k] = keepFloats(v)
	}
	meta := map[string]interface{}{"name": name}
	if r.namespaced {
		meta["namespace"] = namespace
	}
	if rv != "" {
		meta["resourceVersion"] = rv
	}
	out["apiVersion"], out["kind"], out["metadata"] = r.apiVersion, r.kind, meta
	return json.Marshal(out)
}
