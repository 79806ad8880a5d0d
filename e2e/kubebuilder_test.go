package e2e

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/translate"
)

// The example's CRD as controller-gen writes it, and as mut2cel translate
// --markers rewrites it (examples/kubebuilder; its test regenerates both).
const (
	controllerGenCRD = "../examples/kubebuilder/testdata/controller-gen/storage.example.com_volumes.yaml"
	markersCRD       = "../examples/kubebuilder/config/crd/bases/storage.example.com_volumes.yaml"
)

// kubebuilderCases are Volumes created, then updated step by step, each
// step from the object the previous one left, with the verdict of each
// CRD. Both CRDs come from the same +k8s:immutable markers. controller-gen's
// rules let an optional field be set after creation, which validation-gen
// and mut2cel forbid, and let a field below an optional parent change by
// removing the parent and setting it again, which mut2cel forbids because
// removing a parent unsets the fields below it (docs/semantics.md 9.3).
var kubebuilderCases = []struct {
	name, create string // the spec created, as JSON
	steps        []kubebuilderStep
}{
	{"bucket below an optional parent", `{"class": "fast", "backup": {"bucket": "a"}}`, []kubebuilderStep{
		{"change the bucket", `{"class": "fast", "backup": {"bucket": "b"}}`, false, false},
		{"remove the optional parent", `{"class": "fast"}`, true, false},
		{"set the parent again with another bucket", `{"class": "fast", "backup": {"bucket": "b"}}`, true, false},
	}},
	{"bucket below a parent absent at creation", `{"class": "fast"}`, []kubebuilderStep{
		{"set the parent with a bucket", `{"class": "fast", "backup": {"bucket": "b"}}`, true, false},
	}},
	{"optional zone", `{"class": "fast"}`, []kubebuilderStep{
		{"set the zone after creation", `{"class": "fast", "zone": "z1"}`, true, false},
	}},
	// A union with a discriminator (validation-gen's tags): controller-gen
	// writes no rule for it; mut2cel's let only the member type selects
	// be set, and require it (docs/semantics.md 11.3).
	{"union with a discriminator", `{"class": "fast"}`, []kubebuilderStep{
		{"set the member type selects", `{"class": "fast", "dataSource": {"type": "Snapshot", "snapshot": "s1"}}`, true, true},
		{"set a member type does not select", `{"class": "fast", "dataSource": {"type": "Snapshot", "imageURL": "i"}}`, true, false},
		{"set both members", `{"class": "fast", "dataSource": {"type": "Image", "snapshot": "s1", "imageURL": "i"}}`, true, false},
		{"a type that selects no member, none set", `{"class": "fast", "dataSource": {"type": "Empty"}}`, true, true},
		{"the selected member unset", `{"class": "fast", "dataSource": {"type": "Image"}}`, true, false},
		{"the other member, selected", `{"class": "fast", "dataSource": {"type": "Image", "imageURL": "i"}}`, true, true},
	}},
	// A union without a discriminator (controller-gen's ExactlyOneOf):
	// controller-gen's rule and mut2cel's, which replaces it, agree.
	{"union without a discriminator", `{"class": "fast", "backup": {"bucket": "a", "credentials": {"secretName": "s"}}}`, []kubebuilderStep{
		{"set both members", `{"class": "fast", "backup": {"bucket": "a", "credentials": {"secretName": "s", "serviceAccount": "x"}}}`, false, false},
		{"unset both members", `{"class": "fast", "backup": {"bucket": "a", "credentials": {}}}`, false, false},
		{"switch to the other member", `{"class": "fast", "backup": {"bucket": "a", "credentials": {"serviceAccount": "x"}}}`, true, true},
	}},
}

type kubebuilderStep struct {
	name                   string
	spec                   string // the new spec, as JSON
	controllerGen, markers bool   // accepted
}

// testKubebuilder installs both CRDs and drives every case through each:
// controller-gen's rules let the bucket change by unsetting the optional
// parent in one update and setting it again in the next, and let an
// optional +k8s:immutable field be set after creation; mut2cel's refuse
// both. Of the unions, controller-gen checks only its ExactlyOneOf.
func testKubebuilder(t *testing.T, c *cluster) {
	clients := map[string]dynamic.ResourceInterface{
		"controller-gen": installFile(t, c, controllerGenCRD, "controller-gen"),
		"mut2cel":        installFile(t, c, markersCRD, "mut2cel"),
	}
	for _, crd := range []string{"controller-gen", "mut2cel"} {
		for i, tc := range kubebuilderCases {
			obj := volume(t, crd, fmt.Sprintf("v%d", i), tc.create)
			cur, err := clients[crd].Create(context.Background(), obj, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("%s: %s: create: %v", crd, tc.name, err)
			}
			for _, s := range tc.steps {
				want := s.controllerGen
				if crd == "mut2cel" {
					want = s.markers
				}
				next := cur.DeepCopy()
				next.Object["spec"] = object(t, s.spec)
				updated, err := clients[crd].Update(context.Background(), next, metav1.UpdateOptions{})
				switch {
				case err != nil && !apierrors.IsInvalid(err):
					t.Fatalf("%s: %s: %s: %v", crd, tc.name, s.name, err)
				case (err == nil) != want:
					t.Errorf("%s: %s: %s: accepted=%v, want %v (%v)", crd, tc.name, s.name, err == nil, want, err)
				case err == nil:
					cur = updated
				default:
					t.Logf("%s: %s: %s: refused: %v", crd, tc.name, s.name, err)
				}
			}
		}
	}
}

// installFile creates the CRD of a file in a group of its own,
// prefix.<group>, and waits until it is served.
func installFile(t *testing.T, c *cluster, file, prefix string) dynamic.ResourceInterface {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !translate.IsCRD(doc) {
		t.Fatalf("%s: not a CRD", file)
	}
	crd := moveGroup(typedCRD(t, doc), prefix)
	if _, err := c.apiExt.ApiextensionsV1().CustomResourceDefinitions().Create(context.Background(), crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating CRD %s: %v", crd.Name, err)
	}
	v := crd.Spec.Versions[0].Name
	client := c.dyn.Resource(schema.GroupVersionResource{Group: crd.Spec.Group, Version: v, Resource: crd.Spec.Names.Plural}).Namespace("e2e")
	err = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("the server does not serve %s after a minute: %v", crd.Name, err)
	}
	return client
}

// volume is a Volume of the group the prefix moved it to.
func volume(t *testing.T, prefix, name, spec string) *unstructured.Unstructured {
	t.Helper()
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": fmt.Sprintf("%s.storage.example.com/v1", prefix),
		"kind":       "Volume",
		"metadata":   map[string]interface{}{"name": name, "namespace": "e2e"},
		"spec":       object(t, spec),
	}}
}
