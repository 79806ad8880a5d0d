package policyrun

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/frontend/builtin"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/translate"
)

// TestDeploymentReach holds the policy of examples/policy/deployments.yaml
// (Kubernetes 1.33) to the reach its cost line reports, at run time: on
// the largest update that reach allows (as many containers and volumes as
// it says, every name and image as long as it says, nothing changed, so
// that every walk runs to its end), the apiserver's own admission-policy
// code evaluates every validation within the runtime cost limits and
// allows the update. The reach must hold 1,000 entries per list: the
// policy pairs old and new containers by name in one pass.
func TestDeploymentReach(t *testing.T) {
	vp, c := deploymentPolicy(t, translate.KubeVersion{Major: 1, Minor: 33})
	cost, err := policyCost(vp, c)
	if err != nil {
		t.Fatal(err)
	}
	r := cost.Reach
	if !r.Within || r.Entries < 1000 {
		t.Fatalf("reach: within %v, %d entries, %d characters; want within, 1000 entries or more", r.Within, r.Entries, r.Length)
	}
	length := max(r.Length, 8)
	object := deploymentAtReach(int(r.Entries), int(length))
	v, err := admit.NewValidating(vp.Policy)
	if err != nil {
		t.Fatal(err)
	}
	d, err := v.Validate(admit.Request{Operation: admission.Update,
		Resource:  schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		Kind:      schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Namespace: "default", Object: object, OldObject: deploymentAtReach(int(r.Entries), int(length))})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Denied) > 0 || len(d.Errors) > 0 {
		t.Errorf("at the reach (%d entries, strings of %d): denied %q, errors %q", r.Entries, length, d.Denied, d.Errors)
	}
}

// deploymentPolicy is the validating policy of the Deployment example.
func deploymentPolicy(t *testing.T, kube translate.KubeVersion) (policy.ValidatingPolicy, *crd.CRD) {
	t.Helper()
	data, err := os.ReadFile("../../examples/policy/deployments.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sets, err := decl.ParseFile("deployments.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := builtin.ParseResource("apps/v1/Deployment")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := builtin.CRD(res)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		if sets[i].CRD == res.Name() {
			sets[i].CRD = res.VehicleName() // as Vehicles names the built-in kind's CRD
		}
	}
	p, err := translate.CompileForPolicies(doc, translate.Options{KubeVersion: kube, Declarations: sets})
	if err != nil {
		t.Fatal(err)
	}
	c, err := crd.Read(doc)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := policy.Validating(p, c, policy.ValidatingOptions{})
	if err != nil || len(ps) != 1 {
		t.Fatalf("policies: %d, %v", len(ps), err)
	}
	return ps[0], c
}

// deploymentAtReach is a Deployment with n containers and n volumes whose
// names and images are length characters long.
func deploymentAtReach(n, length int) map[string]interface{} {
	name := func(kind string, i int) string {
		s := fmt.Sprintf("%s-%d-", kind, i)
		return s + strings.Repeat("x", length-len(s))
	}
	containers := make([]interface{}, n)
	volumes := make([]interface{}, n)
	for i := range n {
		containers[i] = map[string]interface{}{"name": name("c", i), "image": name("i", i)}
		volumes[i] = map[string]interface{}{"name": name("v", i), "emptyDir": map[string]interface{}{}}
	}
	return map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "web", "namespace": "default"},
		"spec": map[string]interface{}{
			"replicas": int64(3),
			"template": map[string]interface{}{"spec": map[string]interface{}{
				"serviceAccountName": name("sa", 0), "containers": containers, "volumes": volumes,
			}},
		},
	}
}
