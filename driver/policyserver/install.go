package policyserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// InstallPolicies adds ValidatingAdmissionPolicies, bindings and
// namespaces to what the admission plugin reads, with the defaults a
// kube-apiserver gives them, and returns once the plugin enforces them.
// The plugin recompiles its policies about once a second; to know when it
// has, a probe policy is added after objs, and a request it denies is
// sent until it is denied: the plugin reads policies and bindings in the
// order they were added, and compiles all it has read at once.
func (s *Server) InstallPolicies(ctx context.Context, objs ...runtime.Object) error {
	for _, o := range objs {
		if err := s.admission.add(ctx, o); err != nil {
			return err
		}
	}
	return s.waitEnforced(ctx)
}

func (p *policyAdmission) add(ctx context.Context, obj runtime.Object) error {
	d, err := defaulted(obj)
	if err != nil {
		return err
	}
	switch o := d.(type) {
	case *admissionregistrationv1.ValidatingAdmissionPolicy:
		_, err = p.store.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, o, metav1.CreateOptions{})
	case *admissionregistrationv1.ValidatingAdmissionPolicyBinding:
		_, err = p.store.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, o, metav1.CreateOptions{})
	case *corev1.Namespace:
		_, err = p.store.CoreV1().Namespaces().Create(ctx, o, metav1.CreateOptions{})
	}
	return err
}

// probeTimeout bounds the wait for the plugin to enforce new policies,
// which it compiles about once a second.
const probeTimeout = time.Minute

// probeGroup is the API group of the CRDs the probes of waitEnforced
// create as dry runs: never stored, and named by no judge.
const probeGroup = "probe.mut2cel.test"

// waitEnforced adds a probe policy that denies the creation of one CRD of
// its own, and sends that creation as a dry run until the probe denies it.
func (s *Server) waitEnforced(ctx context.Context) error {
	n := s.probes.Add(1)
	name := fmt.Sprintf("mut2cel-probe-%d", n)
	plural := fmt.Sprintf("probe%d", n)
	crdName := plural + "." + probeGroup
	probe := &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionregistrationv1.MatchResources{
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
						Rule: admissionregistrationv1.Rule{
							APIGroups:   []string{apiextensionsv1.GroupName},
							APIVersions: []string{"v1"},
							Resources:   []string{"customresourcedefinitions"},
						},
					},
				}},
			},
			MatchConditions: []admissionregistrationv1.MatchCondition{{Name: "probe", Expression: fmt.Sprintf("object.metadata.name == %q", crdName)}},
			Validations:     []admissionregistrationv1.Validation{{Expression: "false", Message: "probe"}},
		},
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
	for _, o := range []runtime.Object{probe, binding} {
		if err := s.admission.add(ctx, o); err != nil {
			return err
		}
	}
	client, err := clientset.NewForConfig(s.Config)
	if err != nil {
		return err
	}
	crd := probeCRD(crdName, plural)
	denied := fmt.Sprintf("ValidatingAdmissionPolicy '%s'", name)
	err = wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, probeTimeout, true, func(ctx context.Context) (bool, error) {
		_, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil {
			return false, nil
		}
		if strings.Contains(err.Error(), denied) {
			return true, nil
		}
		return false, fmt.Errorf("probing the admission plugin: %w", err)
	})
	if err != nil {
		return fmt.Errorf("the admission plugin does not enforce the new policies after %s: %w", probeTimeout, err)
	}
	return nil
}

func probeCRD(name, plural string) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: probeGroup,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Singular: plural, Kind: "Probe", ListKind: "ProbeList"},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}},
			}},
		},
	}
}
