package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// kind is one translated CRD installed on the server, with what the tests
// need to write its objects and judge the answers.
type kind struct {
	name       string // for messages: source and target version
	source     string // the name of the declared document
	gvr        schema.GroupVersionResource
	apiVersion string
	kind       string
	namespace  string // empty for cluster-scoped resources
	status     bool   // the status subresource is enabled
	props      *apiextensionsv1.JSONSchemaProps
	s          *structuralschema.Structural
	rules      *kube.RuleValidator // the CRD's rules, compiled once
	checker    *reference.Checker
	messages   map[string]bool // the messages of the generated rules
	twin       *kind           // the same schema without the generated rules
}

// install translates a one-version CRD at v, moves it to a group of its own
// (so that one document can be installed at several targets), creates it and
// its twin, and returns the translated kind.
func install(t *testing.T, c *cluster, name string, declared map[string]interface{}, v translate.KubeVersion) *kind {
	t.Helper()
	res, err := translate.Translate(declared, translate.Options{KubeVersion: v})
	if err != nil {
		t.Fatalf("Translate(%s) at %s: %v", name, v, err)
	}
	crd := typedCRD(t, res.Translated)
	if len(crd.Spec.Versions) != 1 {
		t.Fatalf("%s: %d versions; the end-to-end tests drive one-version CRDs", name, len(crd.Spec.Versions))
	}
	checker, err := reference.NewChecker(declaredSchema(t, declared))
	if err != nil {
		t.Fatalf("NewChecker(%s): %v", name, err)
	}
	prefix := fmt.Sprintf("v%d-%d", v.Major, v.Minor)
	real := moveGroup(crd, prefix)
	k := newKind(t, fmt.Sprintf("%s@%s", name, v), real, checker)
	k.source = name
	k.messages = generatedMessages(res)
	twin := moveGroup(crd, "twin-"+prefix)
	stripRules(twin.Spec.Versions[0].Schema.OpenAPIV3Schema, k.messages)
	k.twin = newKind(t, k.name+" twin", twin, checker)
	for _, x := range []*apiextensionsv1.CustomResourceDefinition{real, twin} {
		if _, err := c.apiExt.ApiextensionsV1().CustomResourceDefinitions().Create(context.Background(), x, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating CRD %s (%s): %v", x.Name, k.name, err)
		}
	}
	return k
}

func newKind(t *testing.T, name string, crd *apiextensionsv1.CustomResourceDefinition, checker *reference.Checker) *kind {
	t.Helper()
	v := crd.Spec.Versions[0]
	s, err := kube.Structural(v.Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	k := &kind{
		name:       name,
		gvr:        schema.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural},
		apiVersion: crd.Spec.Group + "/" + v.Name,
		kind:       crd.Spec.Names.Kind,
		status:     v.Subresources != nil && v.Subresources.Status != nil,
		props:      v.Schema.OpenAPIV3Schema,
		s:          s,
		rules:      kube.NewRuleValidator(s),
		checker:    checker,
	}
	if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
		k.namespace = "e2e"
	}
	return k
}

// waitServed waits until the server serves every kind and its twin.
func waitServed(t *testing.T, c *cluster, kinds ...*kind) {
	t.Helper()
	for _, k := range kinds {
		for _, x := range []*kind{k, k.twin} {
			err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
				_, err := x.client(c).List(ctx, metav1.ListOptions{Limit: 1})
				return err == nil, nil
			})
			if err != nil {
				t.Fatalf("the server does not serve %s (%s) after a minute: %v", x.gvr, x.name, err)
			}
		}
	}
}

func (k *kind) client(c *cluster) dynamic.ResourceInterface {
	if k.namespace == "" {
		return c.dyn.Resource(k.gvr)
	}
	return c.dyn.Resource(k.gvr).Namespace(k.namespace)
}

// moveGroup returns a copy of crd in the API group prefix.<group>.
func moveGroup(crd *apiextensionsv1.CustomResourceDefinition, prefix string) *apiextensionsv1.CustomResourceDefinition {
	out := crd.DeepCopy()
	out.Spec.Group = prefix + "." + crd.Spec.Group
	out.Name = out.Spec.Names.Plural + "." + out.Spec.Group
	return out
}

// stripRules removes the rules whose message is a generated one, leaving
// rules the author wrote.
func stripRules(s *apiextensionsv1.JSONSchemaProps, generated map[string]bool) {
	if s == nil {
		return
	}
	var kept apiextensionsv1.ValidationRules
	for _, r := range s.XValidations {
		if !generated[r.Message] {
			kept = append(kept, r)
		}
	}
	s.XValidations = kept
	for name, p := range s.Properties {
		stripRules(&p, generated)
		s.Properties[name] = p
	}
	if s.Items != nil {
		stripRules(s.Items.Schema, generated)
	}
	if s.AdditionalProperties != nil {
		stripRules(s.AdditionalProperties.Schema, generated)
	}
}

func generatedMessages(res *translate.Result) map[string]bool {
	out := map[string]bool{}
	for _, e := range res.Edits {
		for _, r := range e.AddRules {
			out[r.Message] = true
		}
	}
	return out
}

func typedCRD(t *testing.T, doc map[string]interface{}) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(data, crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// declaredSchema is the raw openAPIV3Schema of the only version, with the
// declarations the typed structs drop.
func declaredSchema(t *testing.T, doc map[string]interface{}) map[string]interface{} {
	t.Helper()
	spec, _ := doc["spec"].(map[string]interface{})
	versions, _ := spec["versions"].([]interface{})
	if len(versions) != 1 {
		t.Fatalf("want one version, got %d", len(versions))
	}
	v, _ := versions[0].(map[string]interface{})
	s, _ := v["schema"].(map[string]interface{})
	raw, _ := s["openAPIV3Schema"].(map[string]interface{})
	if raw == nil {
		t.Fatal("version without openAPIV3Schema")
	}
	return raw
}
