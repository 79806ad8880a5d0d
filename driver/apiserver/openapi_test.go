package apiserver

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/driver/policyjudge"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/declread"
)

// TestOpenAPIOfCRD installs the CRD of examples/ports.yaml, without its
// declarations, as an operator would, reads the kind back from the
// OpenAPI v3 document the server publishes for its group version, and
// checks that the CRD made of it has the installed schema (less what the
// reader leaves out: descriptions, patterns), that it compiles for
// policies with the example's declarations, and that its policy verifies
// with no disagreement.
func TestOpenAPIOfCRD(t *testing.T) {
	declared := testcrd.ReadFile(t, "../../examples/ports.yaml")
	published := withoutDeclarations(declared)
	var typed apiextensionsv1.CustomResourceDefinition
	data, _ := yaml.Marshal(published)
	if err := yaml.Unmarshal(data, &typed); err != nil {
		t.Fatal(err)
	}
	gvk := schema.GroupVersionKind{Group: typed.Spec.Group, Version: "v1", Kind: typed.Spec.Names.Kind}
	doc := serverDocument(t, &typed, gvk)
	r, err := doc.Resource(gvk)
	if err != nil {
		t.Fatal(err)
	}
	if r.Plural != "gateways" || r.ClusterScoped || r.Status {
		t.Errorf("Resource = plural %s, cluster-scoped %t, status %t; want gateways, namespaced, no status", r.Plural, r.ClusterScoped, r.Status)
	}
	vehicle, err := builtin.CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	want := kept(schemaRoot(published))
	// The server publishes the root's apiVersion and kind, which every
	// object has, though the CRD does not list them.
	props := want["properties"].(map[string]interface{})
	props["metadata"] = map[string]interface{}{"type": "object"}
	props["apiVersion"] = map[string]interface{}{"type": "string"}
	props["kind"] = map[string]interface{}{"type": "string"}
	if got := schemaRoot(vehicle); !reflect.DeepEqual(got, want) {
		g, _ := yaml.Marshal(got)
		w, _ := yaml.Marshal(want)
		t.Errorf("schema read from the document:\n%s\nwant the installed one:\n%s", g, w)
	}
	copyDeclarations(schemaRoot(declared), schemaRoot(vehicle))
	verifyPolicy(t, vehicle, 1000)
}

// TestOpenAPIOfBuiltin reads the built-in CustomResourceDefinition kind
// from the document the server publishes for apiextensions.k8s.io/v1 (a
// built-in group of every cluster, with the $ref and allOf wrappers the
// apiserver writes for Go types, and a recursive type), declares on it,
// and verifies its policy.
func TestOpenAPIOfBuiltin(t *testing.T) {
	gvk := apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition")
	doc := serverDocument(t, nil, gvk)
	r, err := doc.Resource(gvk)
	if err != nil {
		t.Fatal(err)
	}
	if r.Plural != "customresourcedefinitions" || !r.ClusterScoped || !r.Status {
		t.Errorf("Resource = plural %s, cluster-scoped %t, status %t; want customresourcedefinitions, cluster-scoped, status", r.Plural, r.ClusterScoped, r.Status)
	}
	vehicle, err := builtin.CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	// JSONSchemaProps refers to itself: it is cut where it recurs, once
	// below the schema of a version, within the limits of a run.
	const props = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"
	for _, c := range []struct{ path, at string }{
		{".spec.versions[*].schema.openAPIV3Schema.not.type", ".spec.versions[*].schema.openAPIV3Schema.not"},
		{".spec.versions[*].schema.openAPIV3Schema.properties[*].type", ".spec.versions[*].schema.openAPIV3Schema.properties[*]"},
	} {
		p, err := decl.ParsePath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if at, why, ok := r.Opaque(p); !ok || at.String() != c.at || why != "cut where schema "+props+" recurs within itself" {
			t.Errorf("Opaque(%s) = %s, %q, %t; want %s, cut where %s recurs", c.path, at, why, ok, c.at, props)
		}
	}
	root := schemaRoot(vehicle)
	for _, d := range []struct{ path, ext, value string }{
		{".spec.group", "x-kubernetes-mutability", "Immutable"},
		{".spec.names.kind", "x-kubernetes-mutability", "Immutable"},
		{".spec.conversion.strategy", "x-kubernetes-mutability", "Immutable"},
	} {
		node := root
		for _, name := range strings.Split(d.path[1:], ".") {
			node = node["properties"].(map[string]interface{})[name].(map[string]interface{})
		}
		node[d.ext] = d.value
	}
	verifyPolicy(t, vehicle, 300)
}

// TestOpenAPIOfGeneratedBuiltin reads autoscaling/v1's
// HorizontalPodAutoscaler, a kind of k8s.io/api, from the OpenAPI v3
// schemas kube-openapi's builder writes from the definitions openapi-gen
// generated for it (those an apiserver serves at
// /openapi/v3/apis/autoscaling/v1; this server does not serve the group),
// declares on it, and verifies its policy.
func TestOpenAPIOfGeneratedBuiltin(t *testing.T) {
	obj := autoscalingv1.HorizontalPodAutoscaler{}
	namer := openapinamer.NewDefinitionNamer(clientgoscheme.Scheme)
	schemas, err := builder3.BuildOpenAPIDefinitionsForResources(&common.OpenAPIV3Config{
		GetDefinitions:    generatedopenapi.GetOpenAPIDefinitions,
		GetDefinitionName: namer.GetDefinitionName,
	}, obj.OpenAPIModelName())
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]interface{}{"openapi": "3.0.0", "components": map[string]interface{}{"schemas": schemas}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := builtin.ReadOpenAPI("autoscaling-v1.json", data)
	if err != nil {
		t.Fatal(err)
	}
	// The paths are not generated here: the resource's names are given.
	r := builtin.Resource{GVK: autoscalingv1.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"), Plural: "horizontalpodautoscalers", Status: true, OpenAPI: doc}
	vehicle, err := builtin.CRD(r)
	if err != nil {
		t.Fatal(err)
	}
	root := schemaRoot(vehicle)
	for _, d := range []struct{ path, ext string }{
		{".spec.scaleTargetRef.kind", "x-kubernetes-mutability"},
		{".spec.scaleTargetRef.name", "x-kubernetes-mutability"},
	} {
		node := root
		for _, name := range strings.Split(d.path[1:], ".") {
			node = node["properties"].(map[string]interface{})[name].(map[string]interface{})
		}
		node[d.ext] = "Immutable"
	}
	verifyPolicy(t, vehicle, 500)
}

// serverDocument installs crd, when given, and returns the server's
// OpenAPI v3 document of the kind's group version once it has the kind.
func serverDocument(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, gvk schema.GroupVersionKind) *builtin.OpenAPI {
	t.Helper()
	ctx := context.Background()
	client, err := clientset.NewForConfig(shared.Config)
	if err != nil {
		t.Fatal(err)
	}
	if crd != nil {
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			client.ApiextensionsV1().CustomResourceDefinitions().Delete(ctx, crd.Name, metav1.DeleteOptions{})
		})
	}
	path := "/openapi/v3/apis/" + gvk.Group + "/" + gvk.Version
	var doc *builtin.OpenAPI
	var last error
	// The server publishes a CRD's document a moment after it is created,
	// and answers 404 until then.
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		data, err := client.Discovery().RESTClient().Get().AbsPath(path).Do(ctx).Raw()
		if err == nil {
			doc, err = builtin.ReadOpenAPI("openapi-v3.json", data)
		}
		if last = err; err != nil {
			return false, nil
		}
		for _, k := range doc.Kinds() {
			if k == gvk {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("GET %s: %v (last: %v)", path, err, last)
	}
	return doc
}

// verifyPolicy compiles the declared vehicle for policies, writes its
// validating policy and verifies it through the apiserver's
// admission-policy code: no disagreement, every pair checked; and the
// policy without its validations disagrees, so that the check can fail.
func verifyPolicy(t *testing.T, vehicle map[string]interface{}, pairs int) {
	t.Helper()
	p, err := translate.CompileForPolicies(vehicle, translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	model, err := crdmodel.Read(vehicle)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := policy.Validating(p, model, policy.ValidatingOptions{})
	if err != nil || len(ps) == 0 {
		t.Fatalf("Validating: %d policies, %v", len(ps), err)
	}
	declared, err := declread.CRD(vehicle, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Verify(declared, withoutDeclarations(vehicle), verify.Options{Pairs: pairs, Seed: 1, NewJudge: policyjudge.PolicyJudge(ps)})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Versions {
		t.Logf("version %s: %d pairs, %d disagreements", v.Version, v.Pairs, v.Disagreements)
		for _, ce := range v.Counterexamples {
			t.Errorf("version %s: disagreement:\n%s", v.Version, ce.YAML())
		}
		if v.Pairs != pairs || v.Failed() {
			t.Errorf("version %s: %d pairs of %d, %d disagreements, unexercised %v, untested %v", v.Version, v.Pairs, pairs, v.Disagreements, v.Unexercised(), v.Untested())
		}
	}
	for _, p := range ps {
		p.Policy.Spec.Validations = nil
	}
	rep, err = verify.Verify(declared, withoutDeclarations(vehicle), verify.Options{Pairs: pairs, Seed: 1, NewJudge: policyjudge.PolicyJudge(ps)})
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Versions[0]; v.Disagreements == 0 {
		t.Errorf("version %s: no disagreement with a policy that validates nothing", v.Version)
	}
}

func schemaRoot(doc map[string]interface{}) map[string]interface{} {
	return doc["spec"].(map[string]interface{})["versions"].([]interface{})[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
}

// withoutDeclarations copies a CRD document without the declarations in
// its schemas, as the apiserver stores it (crd.Published).
func withoutDeclarations(doc map[string]interface{}) map[string]interface{} {
	out, err := crdmodel.Published(doc)
	if err != nil {
		panic(err)
	}
	return out
}

// kept copies a schema with only the keywords the document's reader
// keeps.
func kept(s map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{}
	for k, v := range s {
		switch k {
		case "description", "pattern", "example", "x-kubernetes-validations":
		case "properties":
			props := map[string]interface{}{}
			for name, p := range v.(map[string]interface{}) {
				props[name] = kept(p.(map[string]interface{}))
			}
			out[k] = props
		case "items", "additionalProperties":
			out[k] = kept(v.(map[string]interface{}))
		default:
			out[k] = v
		}
	}
	return out
}

// copyDeclarations sets on to the declarations of from, node by node.
func copyDeclarations(from, to map[string]interface{}) {
	for k, v := range from {
		if _, ok := decl.KindNamed(k); ok {
			to[k] = v
		}
	}
	fp, _ := from["properties"].(map[string]interface{})
	tp, _ := to["properties"].(map[string]interface{})
	for name, p := range fp {
		if q, ok := tp[name].(map[string]interface{}); ok {
			copyDeclarations(p.(map[string]interface{}), q)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		f, ok1 := from[k].(map[string]interface{})
		g, ok2 := to[k].(map[string]interface{})
		if ok1 && ok2 {
			copyDeclarations(f, g)
		}
	}
}
