package policyserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mut2cel/mut2cel/verify"
)

// policiedSchema declares, beside nothing else: an immutable field, an
// add-only field of the items of a list-type map, and a union with a
// discriminator. Written as policies, the first two are transition
// rules, checked on updates; the union is checked on creates too.
const policiedSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, maxLength: 16, x-kubernetes-mutability: Immutable}
      ports:
        type: array
        maxItems: 4
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string, maxLength: 8}
            hostname: {type: string, maxLength: 16, x-kubernetes-mutability: AddOnly}
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

// TestPolicyJudge checks that the server, enforcing the policies written
// for policiedSchema, refuses exactly the updates the reference checker
// refuses, and reports a pair the schema refuses as ErrInvalidPair.
func TestPolicyJudge(t *testing.T) {
	t.Parallel()
	pc := policyCases(t)["policied"]
	j, checker := pc.judge, pc.checker
	for _, c := range []struct {
		what, old, new  string
		denied, invalid bool
	}{
		{what: "no change", old: `{spec: {class: a}}`, new: `{spec: {class: a}}`},
		{what: "the immutable field changes", old: `{spec: {class: a}}`, new: `{spec: {class: b}}`, denied: true},
		{what: "the immutable field is removed", old: `{spec: {class: a}}`, new: `{spec: {}}`, denied: true},
		{what: "the immutable field is added", old: `{spec: {}}`, new: `{spec: {class: a}}`, denied: true},
		{what: "the immutable field's parent is removed", old: `{spec: {class: a}}`, new: `{}`, denied: true},
		{what: "an add-only field is added to an item", old: `{spec: {ports: [{name: p}]}}`, new: `{spec: {ports: [{name: p, hostname: h}]}}`},
		{what: "an add-only field changes", old: `{spec: {ports: [{name: p, hostname: h}]}}`, new: `{spec: {ports: [{name: p, hostname: i}]}}`, denied: true},
		{what: "an add-only field is removed", old: `{spec: {ports: [{name: p, hostname: h}]}}`, new: `{spec: {ports: [{name: p}]}}`, denied: true},
		{what: "the item of an add-only field is removed", old: `{spec: {ports: [{name: p, hostname: h}, {name: q}]}}`, new: `{spec: {ports: [{name: q}]}}`},
		{what: "items are reordered and one added", old: `{spec: {ports: [{name: p, hostname: h}, {name: q}]}}`, new: `{spec: {ports: [{name: r, hostname: x}, {name: q}, {name: p, hostname: h}]}}`},
		{what: "an item's add-only field moves to another key", old: `{spec: {ports: [{name: p, hostname: h}, {name: q}]}}`, new: `{spec: {ports: [{name: p}, {name: q, hostname: h}]}}`, denied: true},
		{what: "the union switches member with its discriminator", old: `{spec: {backend: {type: Service, service: s}}}`, new: `{spec: {backend: {type: URL, url: u}}}`},
		{what: "the union's member is not the one selected", old: `{spec: {backend: {type: Service, service: s}}}`, new: `{spec: {backend: {type: Service, url: u}}}`, denied: true},
		{what: "the union has two members", old: `{spec: {backend: {type: Service, service: s}}}`, new: `{spec: {backend: {type: Service, service: s, url: u}}}`, denied: true},
		{what: "the union selects nothing and has no member", old: `{spec: {backend: {type: Service, service: s}}}`, new: `{spec: {backend: {type: None}}}`},
		{what: "a broken union, untouched, ratchets", old: `{spec: {class: a, backend: {service: s}}}`, new: `{spec: {class: a, ports: [{name: p}], backend: {service: s}}}`},
		{what: "a broken union that changes is checked", old: `{spec: {backend: {service: s}}}`, new: `{spec: {backend: {service: t}}}`, denied: true},
		{what: "the new object fails the schema", old: `{spec: {class: a}}`, new: `{spec: {class: far-too-long-for-a-class}}`, invalid: true},
		{what: "the new object fails the schema and a policy", old: `{spec: {class: a}}`, new: `{spec: {class: b, ports: [{name: far-too-long}]}}`, invalid: true},
	} {
		old, new := stored(t, c.old), stored(t, c.new)
		denied, detail, err := j.Update(old, new)
		if c.invalid {
			if !errors.Is(err, verify.ErrInvalidPair) {
				t.Errorf("%s: Update(%s, %s) = %v, %q, %v; want ErrInvalidPair", c.what, c.old, c.new, denied, detail, err)
			}
			continue
		}
		violations := checker.Check(old, new)
		if got := len(violations) > 0; got != c.denied {
			t.Errorf("%s: the reference checker denies: %v, want %v: %v", c.what, got, c.denied, violations)
		}
		if err != nil || denied != c.denied {
			t.Errorf("%s: Update(%s, %s) = %v, %q, %v; want denied %v", c.what, c.old, c.new, denied, detail, err, c.denied)
			continue
		}
		for _, d := range detail {
			if !strings.HasPrefix(d, "ValidatingAdmissionPolicy 'widgets.example.com-mut2cel-validate-v1-j") {
				t.Errorf("%s: detail %q is not a denial by the judge's policy", c.what, d)
			}
		}
	}
}

// TestPolicyCreates checks that the policies, installed by
// InstallPolicies for a CRD the test installs, judge creates too: of
// objects the union refuses, but not those of the user a policy judge
// writes old objects as.
func TestPolicyCreates(t *testing.T) {
	t.Parallel()
	pc := policyCases(t)["policied"]
	ctx := context.Background()
	// The plugin maps kinds to resources with the server's discovery (for
	// the parameters of a policy, which these have none of).
	m, err := shared.admission.mapper.RESTMapping(schema.GroupKind{Group: createsGroup, Kind: "Widget"}, "v1")
	if err != nil || m.Resource.Resource != "widgets" {
		t.Errorf("the plugin's REST mapper maps %s Widget to %v, %v; want widgets", createsGroup, m, err)
	}
	for i, c := range []struct {
		obj            string
		asWriter, want bool
	}{
		{obj: `{spec: {backend: {type: URL, url: u}}}`},
		{obj: `{spec: {backend: {type: URL, service: s}}}`, want: true},
		{obj: `{spec: {backend: {url: u}}}`, want: true},
		{obj: `{spec: {backend: {url: u}}}`, asWriter: true},
	} {
		obj := stored(t, c.obj)
		if got := len(pc.checker.CheckCreate(obj)) > 0; got != c.want && !c.asWriter {
			t.Errorf("%s: the reference checker refuses: %v, want %v", c.obj, got, c.want)
		}
		if refused, err := pc.creates.create(ctx, fmt.Sprintf("create%d", i), obj, c.asWriter); refused != c.want || (err != nil && !refused) {
			t.Errorf("create %s (as the old objects' writer: %v): %v; want refused by the policy: %v", c.obj, c.asWriter, err, c.want)
		}
	}
}

// TestPolicyExemptServiceAccounts checks the match condition of the
// policies written to exempt a service account: its requests pass, the
// others' are judged.
func TestPolicyExemptServiceAccounts(t *testing.T) {
	t.Parallel()
	pc := policyCases(t)["policied"]
	ctx := context.Background()
	broken := stored(t, `{spec: {backend: {url: u}}}`)
	if refused, err := pc.exempt.create(ctx, "as-user", broken, false); !refused {
		t.Errorf("a broken union created by a user: %v; want refused by the policy", err)
	}
	if refused, err := pc.exempt.create(ctx, "as-operator", broken, true); refused || err != nil {
		t.Errorf("a broken union created as %s: %v; want created", operator.UserName, err)
	}
}

// create creates obj, as the other user or not, and deletes it again. It
// reports whether the target's policy refused it; any other error fails
// it too, and is returned.
func (c *createsTarget) create(ctx context.Context, name string, obj map[string]interface{}, asOther bool) (bool, error) {
	r := c.user
	if asOther {
		r = c.other
	}
	u := &unstructured.Unstructured{Object: obj}
	u.SetAPIVersion(c.group + "/v1")
	u.SetKind("Widget")
	u.SetName(name)
	_, err := r.Create(ctx, u, metav1.CreateOptions{})
	if err == nil {
		r.Delete(ctx, name, metav1.DeleteOptions{})
		return false, nil
	}
	policyName := "widgets.example.com-mut2cel-validate-v1-" + strings.TrimSuffix(c.group, ".example.com")
	return strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+policyName+"'"), err
}

// TestPolicyNamespaceSelector checks that the plugin matches a binding's
// namespace selector against the labels of the namespace it reads: a
// binding that selects other namespaces leaves the judge's updates alone.
func TestPolicyNamespaceSelector(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, value string
		denied      bool
	}{
		{name: "selecting", value: namespaceValue, denied: true},
		{name: "selecting others", value: "no"},
	} {
		j := policyCases(t)[c.name].judge
		denied, detail, err := j.Update(stored(t, `{spec: {class: a}}`), stored(t, `{spec: {class: b}}`))
		if err != nil || denied != c.denied {
			t.Errorf("selector %s=%s: class a -> b: %v, %q, %v; want denied %v", namespaceLabel, c.value, denied, detail, err, c.denied)
		}
	}
}

// TestPolicyEvaluationError checks how the server reports a validation
// that fails to evaluate, as policyCauses reads it: a denial marked so
// that verify counts it as an evaluation error. The request is the dry-run
// create of a CRD, which the policy matches by name.
func TestPolicyEvaluationError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const crdName = "failings.probe.mut2cel.test"
	failing := &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "mut2cel-failing"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{"apiextensions.k8s.io"}, APIVersions: []string{"v1"}, Resources: []string{"customresourcedefinitions"}},
				},
			}}},
			MatchConditions: []admissionregistrationv1.MatchCondition{{Name: "this", Expression: `object.metadata.name == "` + crdName + `"`}},
			Validations:     []admissionregistrationv1.Validation{{Expression: `object.spec.nothing == "x"`, Message: "never"}},
		},
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "mut2cel-failing"},
		Spec:       admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: "mut2cel-failing", ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}},
	}
	if err := shared.InstallPolicies(ctx, failing, binding); err != nil {
		t.Fatal(err)
	}
	client, err := clientset.NewForConfig(shared.Config)
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, probeCRD(crdName, "failings"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	causes, ok := policyCauses(err)
	if !ok || len(causes) != 1 || !strings.HasPrefix(causes[0], verify.PolicyErrorMarker+"ValidatingAdmissionPolicy 'mut2cel-failing'") {
		t.Errorf("the dry-run create: %v; read as %q, %v; want one cause marked as an evaluation error", err, causes, ok)
	}
}
