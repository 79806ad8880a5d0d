package policy

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/plan"
)

// The kinds of policy, as they appear in names.
const (
	KindNormalize = "normalize"
	KindValidate  = "validate"
)

// The first Kubernetes releases that serve each kind of policy as
// admissionregistration.k8s.io/v1, on by default: ValidatingAdmissionPolicy
// is GA from 1.30, MutatingAdmissionPolicy from 1.36 (alpha in 1.32, beta
// and off by default in 1.34 and 1.35). A policy written for an older
// target would be refused by its apiserver, or, with the API turned on
// by hand, run by code that is not the one mut2cel is held to.
var (
	ValidatingSince = plan.KubeVersion{Major: 1, Minor: 30}
	MutatingSince   = plan.KubeVersion{Major: 1, Minor: 36}
)

// Name names the policy of one kind for one version of a CRD, and its
// binding: <crd-name>-mut2cel-<kind>-<version>, so that the policies of
// one CRD sort together and each version has its own. It fails when the
// name is not a DNS subdomain (longer than 253 characters, for one).
func Name(crd, kind, version string) (string, error) {
	name := strings.ToLower(crd + "-mut2cel-" + kind + "-" + version)
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return "", fmt.Errorf("the policy name %s is not valid: %s", name, strings.Join(errs, "; "))
	}
	return name, nil
}

// Options are the choices of the bindings, and of the match conditions
// and failure policy that the apiserver keeps on the policy itself.
type Options struct {
	// NamespaceSelector and ObjectSelector restrict the binding to the
	// objects they select; nil selects everything.
	NamespaceSelector, ObjectSelector *metav1.LabelSelector
	// Exempt are service accounts whose requests the policy leaves
	// alone: controllers that write the objects and know their unions.
	Exempt []ServiceAccount
	// FailurePolicy is Fail when empty: a request the policy cannot
	// evaluate is refused rather than stored unnormalized.
	FailurePolicy admissionregistrationv1.FailurePolicyType
}

// ServiceAccount names one service account.
type ServiceAccount struct{ Namespace, Name string }

// ParseServiceAccount reads NAMESPACE:NAME.
func ParseServiceAccount(s string) (ServiceAccount, error) {
	ns, name, ok := strings.Cut(s, ":")
	if !ok || validation.IsDNS1123Label(ns) != nil || validation.IsDNS1123Subdomain(name) != nil {
		return ServiceAccount{}, fmt.Errorf("%q is not a service account: want NAMESPACE:NAME, both lowercase DNS names", s)
	}
	return ServiceAccount{Namespace: ns, Name: name}, nil
}

// Username is the user name the apiserver gives the service account's
// requests.
func (a ServiceAccount) Username() string {
	return "system:serviceaccount:" + a.Namespace + ":" + a.Name
}

// check says what is wrong with o.
func (o Options) check() error {
	switch o.FailurePolicy {
	case "", admissionregistrationv1.Fail, admissionregistrationv1.Ignore:
		return nil
	}
	return fmt.Errorf("failure policy %q: want Fail or Ignore", o.FailurePolicy)
}

func (o Options) failurePolicy() *admissionregistrationv1.FailurePolicyType {
	f := o.FailurePolicy
	if f == "" {
		f = admissionregistrationv1.Fail
	}
	return &f
}

// exemptCondition is the match condition that leaves the exempt service
// accounts' requests alone; none when there is none.
func (o Options) matchConditions() []admissionregistrationv1.MatchCondition {
	if len(o.Exempt) == 0 {
		return nil
	}
	names := make([]string, len(o.Exempt))
	for i, a := range o.Exempt {
		names[i] = celString(a.Username())
	}
	return []admissionregistrationv1.MatchCondition{{
		Name:       "mut2cel-exempt-service-accounts",
		Expression: "!(request.userInfo.username in [" + strings.Join(names, ", ") + "])",
	}}
}

// matchConstraints match the requests that create or update the CRD's
// resources through one version, and nothing else: matchPolicy Exact,
// so that a request sent through another version, with other schema
// paths, is left to that version's policy. subresources are added as
// plural/subresource: a policy about status must also see the writes
// of the status subresource, the only ones whose status the apiserver
// keeps when the CRD has that subresource.
func matchConstraints(c plan.Resource, version string, subresources ...string) *admissionregistrationv1.MatchResources {
	resources := []string{c.Plural}
	for _, s := range subresources {
		resources = append(resources, c.Plural+"/"+s)
	}
	exact := admissionregistrationv1.Exact
	return &admissionregistrationv1.MatchResources{
		MatchPolicy: &exact,
		ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
			RuleWithOperations: admissionregistrationv1.RuleWithOperations{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule: admissionregistrationv1.Rule{
					APIGroups:   []string{c.Group},
					APIVersions: []string{version},
					Resources:   resources,
				},
			},
		}},
	}
}

// bindingMatch is the binding's own restriction: the selectors.
func (o Options) bindingMatch() *admissionregistrationv1.MatchResources {
	if o.NamespaceSelector == nil && o.ObjectSelector == nil {
		return nil
	}
	return &admissionregistrationv1.MatchResources{NamespaceSelector: o.NamespaceSelector, ObjectSelector: o.ObjectSelector}
}

// ErrClusterScopedNamespaceSelector: the apiserver ignores a namespace
// selector for cluster-scoped resources, so the binding would apply to
// every object of a CRD the user meant to restrict.
var ErrClusterScopedNamespaceSelector = errors.New("a namespace selector does not restrict the objects of a cluster-scoped resource: the apiserver applies the policy to all of them")

// Render writes objects as YAML documents separated by "---", in order,
// with sorted keys, and every CEL expression as a literal block, so that
// it reads as written rather than folded and quoted.
func Render(objects ...interface{}) ([]byte, error) {
	var b bytes.Buffer
	for i, o := range objects {
		data, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		var doc yamlv3.Node
		if err := yamlv3.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		literalExpressions(&doc)
		dropEmptyStatus(&doc)
		if i > 0 {
			b.WriteString("---\n")
		}
		enc := yamlv3.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// dropEmptyStatus removes a top-level status: {}, which the API types
// write for a policy that no apiserver has looked at.
func dropEmptyStatus(doc *yamlv3.Node) {
	if doc.Kind != yamlv3.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yamlv3.MappingNode {
		return
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "status" && m.Content[i+1].Kind == yamlv3.MappingNode && len(m.Content[i+1].Content) == 0 {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// literalExpressions sets the style of the value of every expression key
// below n to a literal block.
func literalExpressions(n *yamlv3.Node) {
	if n.Kind == yamlv3.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "expression" && v.Kind == yamlv3.ScalarNode {
				v.Style = yamlv3.LiteralStyle
			}
		}
	}
	for _, c := range n.Content {
		literalExpressions(c)
	}
}

// typeMeta of the admission objects.
func typeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: kind}
}

// labels mark every object mut2cel writes, so that users can find them.
func objectMeta(name, crd string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Labels: map[string]string{
		"app.kubernetes.io/managed-by": "mut2cel",
	}, Annotations: map[string]string{"mut2cel.io/crd": crd}}
}
