package policyserver

import (
	"context"
	"sync"
	"testing"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/mut2cel/mut2cel/backend/policy"
	crdmodel "github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/driver/apiserver"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// A policyCase is a CRD whose declarations policies enforce: the
// reference checker of its declarations and the policy judge of its only
// version, v1, on the policy server.
type policyCase struct {
	declared, published map[string]interface{}
	checker             *reference.Checker
	judge               verify.Judge
	// creates and exempt, of the case "policied" only, write objects of
	// its CRD installed with its policies as a user of this package
	// would: in createsGroup, with the policies as written by default, and
	// in exemptGroup, with the policies written to exempt operator.
	creates, exempt *createsTarget
}

var (
	policyCasesOnce sync.Once
	policyCasesMap  map[string]*policyCase
)

// policyCases builds the policy judges of the tests, once, and all at
// once: a judge waits for the plugin to read its policies (up to a
// second) and for its CRDs, whose first object the server then delays by
// two seconds; together these waits cost what one does.
func policyCases(t *testing.T) map[string]*policyCase {
	t.Helper()
	policyCasesOnce.Do(func() { policyCasesMap = buildPolicyCases(t) })
	if policyCasesMap == nil {
		t.Fatal("the policy judges could not be built")
	}
	return policyCasesMap
}

func buildPolicyCases(t *testing.T) map[string]*policyCase {
	srv := shared
	policied := testcrd.WithSchema(t, policiedSchema)
	selecting := func(value string) policy.ValidatingOptions {
		return policy.ValidatingOptions{Options: policy.Options{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{namespaceLabel: value}}}}
	}
	toothless := policiesOf(t, readExample(t, "unions.yaml"), policy.ValidatingOptions{})
	for _, p := range toothless {
		p.Policy.Spec.Validations = nil
	}
	defs := map[string]struct {
		declared map[string]interface{}
		policies []policy.ValidatingPolicy
	}{
		"policied":          {policied, policiesOf(t, policied, policy.ValidatingOptions{})},
		"selecting":         {policied, policiesOf(t, policied, selecting(namespaceValue))},
		"selecting others":  {policied, policiesOf(t, policied, selecting("no"))},
		"ports.yaml":        {readExample(t, "ports.yaml"), policiesOf(t, readExample(t, "ports.yaml"), policy.ValidatingOptions{})},
		"unions.yaml":       {readExample(t, "unions.yaml"), policiesOf(t, readExample(t, "unions.yaml"), policy.ValidatingOptions{})},
		"unions.yaml, none": {readExample(t, "unions.yaml"), toothless},
	}
	out := map[string]*policyCase{}
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, d := range defs {
		pc := &policyCase{declared: d.declared, published: published(t, d.declared)}
		raw := onlySchema(pc.declared)
		checker, err := reference.NewChecker(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pc.checker = checker
		target := verify.Target{CRD: pc.published, Version: "v1", Schema: structural(t, onlySchema(pc.published))}
		out[name] = pc
		wg.Add(1)
		go func(name string, policies []policy.ValidatingPolicy) {
			defer wg.Done()
			j, err := srv.NewPolicyJudge(policies)(target)
			mu.Lock()
			defer mu.Unlock()
			pc.judge, errs[name] = j, err
		}(name, d.policies)
	}
	exempting := policiesOf(t, policied, policy.ValidatingOptions{Options: policy.Options{Exempt: []policy.ServiceAccount{{Namespace: operatorNamespace, Name: operatorName}}}})
	for _, c := range []struct {
		group    string
		policies []policy.ValidatingPolicy
		other    rest.ImpersonationConfig
		to       **createsTarget
	}{
		{createsGroup, defs["policied"].policies, oldWriter, &out["policied"].creates},
		{exemptGroup, exempting, operator, &out["policied"].exempt},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target, err := installCreates(srv, out["policied"].published, c.policies, c.group, c.other)
			mu.Lock()
			defer mu.Unlock()
			*c.to, errs[c.group] = target, err
		}()
	}
	wg.Wait()
	for name, err := range errs {
		if err != nil {
			t.Errorf("%s: NewPolicyJudge: %v", name, err)
			return nil
		}
	}
	// Past the server's delay of the first creates of new CRDs.
	time.Sleep(2 * time.Second)
	return out
}

// The API groups TestPolicyCreates and TestPolicyExemptServiceAccounts
// install their CRD in.
const createsGroup, exemptGroup = "creates.example.com", "exempt.example.com"

// The service account the policies of exemptGroup exempt, and the user
// that acts as it.
const operatorNamespace, operatorName = "ops", "operator"

var operator = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + operatorNamespace + ":" + operatorName, Groups: []string{"system:masters"}}

// createsTarget writes objects of a CRD installed with its policies, as
// a user the policies judge and as another one.
type createsTarget struct {
	group       string
	user, other dynamic.ResourceInterface
}

// installCreates installs the policies ps of the CRD published, then the
// CRD, both in group, as a user of this package would.
func installCreates(srv *Server, published map[string]interface{}, ps []policy.ValidatingPolicy, group string, other rest.ImpersonationConfig) (*createsTarget, error) {
	ctx := context.Background()
	c, err := crdmodel.Read(published)
	if err != nil {
		return nil, err
	}
	typed, err := c.Typed()
	if err != nil {
		return nil, err
	}
	var objs []runtime.Object
	for _, p := range ps {
		objs = append(objs, retargeted(p, typed.Spec.Group, group)...)
	}
	if err := srv.InstallPolicies(ctx, objs...); err != nil {
		return nil, err
	}
	typed.Spec.Group = group
	typed.Name = typed.Spec.Names.Plural + "." + group
	typed.ResourceVersion = ""
	client, err := clientset.NewForConfig(srv.Config)
	if err != nil {
		return nil, err
	}
	if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, typed, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: typed.Spec.Names.Plural}
	out := &createsTarget{group: group}
	for _, who := range []struct {
		to  *dynamic.ResourceInterface
		imp *rest.ImpersonationConfig
	}{{&out.user, nil}, {&out.other, &other}} {
		config := rest.CopyConfig(srv.Config)
		if who.imp != nil {
			config.Impersonate = *who.imp
		}
		d, err := dynamic.NewForConfig(config)
		if err != nil {
			return nil, err
		}
		*who.to = d.Resource(gvr).Namespace(apiserver.Namespace)
	}
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := out.user.List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil, nil
	})
	return out, err
}
