package apiserver

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"

	"github.com/mut2cel/mut2cel/crd"
)

// installTimeout bounds the wait for a new CRD to be established and
// served.
const installTimeout = time.Minute

// judgedCRD is the CRD a judge installs for one version of the CRD under
// test, in an API group of its own (prefix.<group>), so that any number of
// CRDs of one name can be judged by one server. It serves and stores that
// version alone, without conversion, and without subresources: with a
// status subresource, an update of the resource keeps the old status, and
// the pair would not be written as given. The schema, scope and names are
// the CRD's own.
//
// Of the metadata it keeps only what CRD validation reads besides the
// name: the api-approved.kubernetes.io annotation, which a CRD of a
// protected group (k8s.io, kubernetes.io and their subdomains) must carry
// with a URL or a reason starting with "unapproved" (KEP 1111; the
// apiserver's validateAPIApproval). Prefixing the group keeps it protected
// exactly when it was, so the CRD's own annotation, which the apiserver's
// validation in process has accepted, is what the judged group needs.
func judgedCRD(doc map[string]interface{}, version, prefix string) (*apiextensionsv1.CustomResourceDefinition, error) {
	model, err := crd.Read(doc)
	if err != nil {
		return nil, err
	}
	typed, err := model.Typed()
	if err != nil {
		return nil, err
	}
	var v *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range typed.Spec.Versions {
		if typed.Spec.Versions[i].Name == version {
			v = &typed.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, fmt.Errorf("the CRD has no version %q", version)
	}
	v.Served, v.Storage, v.Subresources = true, true, nil
	out := &apiextensionsv1.CustomResourceDefinition{Spec: typed.Spec}
	if approval, ok := typed.Annotations[apiextensionsv1.KubeAPIApprovedAnnotation]; ok {
		out.Annotations = map[string]string{apiextensionsv1.KubeAPIApprovedAnnotation: approval}
	}
	out.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{*v}
	out.Spec.Conversion = nil
	out.Spec.Group = prefix + "." + typed.Spec.Group
	out.Name = out.Spec.Names.Plural + "." + out.Spec.Group
	return out, nil
}

// withoutRules returns a copy of crd in the API group prefix.<group> whose
// schema has no x-kubernetes-validations: what the server refuses there, it
// refuses whatever the rules say.
func withoutRules(crd *apiextensionsv1.CustomResourceDefinition, prefix string) *apiextensionsv1.CustomResourceDefinition {
	out := regrouped(crd, prefix)
	for i := range out.Spec.Versions {
		if s := out.Spec.Versions[i].Schema; s != nil {
			stripRules(s.OpenAPIV3Schema)
		}
	}
	return out
}

// regrouped returns a copy of crd in the API group prefix.<group>.
func regrouped(crd *apiextensionsv1.CustomResourceDefinition, prefix string) *apiextensionsv1.CustomResourceDefinition {
	out := crd.DeepCopy()
	out.Spec.Group = prefix + "." + crd.Spec.Group
	out.Name = out.Spec.Names.Plural + "." + out.Spec.Group
	return out
}

func stripRules(s *apiextensionsv1.JSONSchemaProps) {
	if s == nil {
		return
	}
	s.XValidations = nil
	for name, p := range s.Properties {
		stripRules(&p)
		s.Properties[name] = p
	}
	if s.Items != nil {
		stripRules(s.Items.Schema)
		for i := range s.Items.JSONSchemas {
			stripRules(&s.Items.JSONSchemas[i])
		}
	}
	if s.AdditionalProperties != nil {
		stripRules(s.AdditionalProperties.Schema)
	}
	for _, list := range [][]apiextensionsv1.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			stripRules(&list[i])
		}
	}
	stripRules(s.Not)
}

// install creates the CRDs of the resources and waits until the server
// serves them all. The CRDs are created at once, so that their first
// objects wait once: the server delays creates for two seconds after a CRD
// is established.
func install(ctx context.Context, config *rest.Config, resources ...*resource) error {
	client, err := clientset.NewForConfig(config)
	if err != nil {
		return err
	}
	crds := client.ApiextensionsV1().CustomResourceDefinitions()
	for _, r := range resources {
		if _, err := crds.Create(ctx, r.crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating CRD %s: %w", r.crd.Name, err)
		}
	}
	for _, r := range resources {
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, installTimeout, true, func(ctx context.Context) (bool, error) {
			got, err := crds.Get(ctx, r.crd.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			return established(got) && r.list(ctx) == nil, nil
		})
		if err != nil {
			return fmt.Errorf("CRD %s is not served after %s: %w", r.crd.Name, installTimeout, err)
		}
	}
	return nil
}

func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
			return true
		}
	}
	return false
}
