package policy_test

import (
	"errors"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mut2cel/mut2cel/backend/policy"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/admit"
	"github.com/mut2cel/mut2cel/plan"
	"github.com/mut2cel/mut2cel/testkit/golden"
)

// unionsDecl declares unions on the node at path.
func unionsDecl(path decl.Path, us ...decl.Union) decl.Declaration {
	return decl.Declaration{Path: path, Ext: decl.ExtUnions, Value: decl.UnionsText(us)}
}

func p(names ...string) decl.Path {
	var out decl.Path
	for _, n := range names {
		if n == "*" {
			out = append(out, decl.Step{Entries: true})
			continue
		}
		out = append(out, decl.Step{Name: n})
	}
	return out
}

var (
	typed = decl.Union{Discriminator: "type", ExactlyOne: true,
		Members: []decl.UnionMember{{Name: "a", Value: "A"}, {Name: "b", Value: "B"}}}
	plain = decl.Union{Members: []decl.UnionMember{{Name: "fraction"}, {Name: "percent"}}}
)

func testPlan(scope string, versions ...plan.Version) *plan.Plan {
	return &plan.Plan{Resource: plan.Resource{Name: "widgets.example.com", Group: "example.com", Kind: "Widget", Plural: "widgets", Scope: scope},
		Versions: versions}
}

// TestNormalizingGolden pins the policies and bindings of a plan with
// two served versions, one of them with two unions, a version not
// served and one without unions, rendered with every binding option.
func TestNormalizingGolden(t *testing.T) {
	pl := testPlan("Namespaced",
		plan.Version{Name: "v1", Served: true, Storage: true, Declarations: []decl.Declaration{
			unionsDecl(p("spec", "mirror"), plain),
			unionsDecl(p("spec"), typed),
		}},
		plan.Version{Name: "v1beta1", Served: true, Declarations: []decl.Declaration{unionsDecl(p("spec"), typed)}},
		plan.Version{Name: "v1alpha1", Served: false, Declarations: []decl.Declaration{unionsDecl(p("spec"), typed)}},
		plan.Version{Name: "v2", Served: true},
	)
	opts := policy.Options{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
		ObjectSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"web"}}}},
		Exempt:        []policy.ServiceAccount{{Namespace: "ops", Name: "widget-controller"}},
		FailurePolicy: admissionregistrationv1.Ignore,
	}
	ns, err := policy.Normalizing(pl, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 2 || ns[0].Version != "v1" || ns[1].Version != "v1beta1" {
		t.Fatalf("Normalizing = %d policies, want those of v1 and v1beta1", len(ns))
	}
	if got := ns[0].Unions; len(got) != 2 || got[0].Node.String() != ".spec" || got[1].Node.String() != ".spec.mirror" {
		t.Errorf("unions of v1 = %v, want .spec before .spec.mirror", got)
	}
	var objs []interface{}
	for _, n := range ns {
		if _, err := admit.Mutating(n.Policy); err != nil {
			t.Errorf("version %s: %v", n.Version, err)
		}
		objs = append(objs, n.Policy, n.Binding)
	}
	out, err := policy.Render(objs...)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/normalize.yaml", out)
	if strings.Contains(string(out), "creationTimestamp") || strings.Contains(string(out), "status") {
		t.Errorf("the output holds creationTimestamp or status:\n%s", out)
	}
}

// TestNormalizingDefaults checks the defaults: failure policy Fail, no
// match condition, no selector, and no policy for a plan without unions.
func TestNormalizingDefaults(t *testing.T) {
	ns, err := policy.Normalizing(testPlan("Cluster", plan.Version{Name: "v1", Served: true,
		Declarations: []decl.Declaration{unionsDecl(p(), typed)}}), policy.Options{})
	if err != nil || len(ns) != 1 {
		t.Fatalf("Normalizing = %d, %v", len(ns), err)
	}
	spec := ns[0].Policy.Spec
	if *spec.FailurePolicy != admissionregistrationv1.Fail || spec.MatchConditions != nil || ns[0].Binding.Spec.MatchResources != nil ||
		spec.ReinvocationPolicy != admissionregistrationv1.IfNeededReinvocationPolicy || *spec.MatchConstraints.MatchPolicy != admissionregistrationv1.Exact {
		t.Errorf("defaults = %+v, binding %+v", spec, ns[0].Binding.Spec)
	}
	if ns[0].Policy.Name != "widgets.example.com-mut2cel-normalize-v1" || ns[0].Binding.Spec.PolicyName != ns[0].Policy.Name {
		t.Errorf("names = %s, %s", ns[0].Policy.Name, ns[0].Binding.Spec.PolicyName)
	}
	if got := spec.MatchConstraints.ResourceRules[0].Resources; len(got) != 1 || got[0] != "widgets" {
		t.Errorf("resources = %v, want [widgets]", got)
	}
	st, err := policy.Normalizing(testPlan("Namespaced", plan.Version{Name: "v1", Served: true,
		Declarations: []decl.Declaration{unionsDecl(p("status", "phase"), plain)}}), policy.Options{})
	if err != nil || len(st) != 1 {
		t.Fatalf("Normalizing of a status union = %d, %v", len(st), err)
	}
	if got := st[0].Policy.Spec.MatchConstraints.ResourceRules[0].Resources; len(got) != 2 || got[1] != "widgets/status" {
		t.Errorf("resources of a status union = %v, want [widgets widgets/status]", got)
	}
	none, err := policy.Normalizing(testPlan("Namespaced", plan.Version{Name: "v1", Served: true}), policy.Options{})
	if err != nil || len(none) != 0 {
		t.Errorf("Normalizing of a plan without unions = %d, %v; want none", len(none), err)
	}
}

// TestNormalizingRefusals: what cannot be normalized exactly is refused,
// every case at once, with its version and path; unions inside entries
// are not, where the plan says how their entries pair.
func TestNormalizingRefusals(t *testing.T) {
	rootMeta := decl.Union{Members: []decl.UnionMember{{Name: "metadata"}, {Name: "spec"}}}
	rootKind := decl.Union{Discriminator: "kind", Members: []decl.UnionMember{{Name: "spec", Value: "S"}}}
	_, err := policy.Normalizing(testPlan("Namespaced",
		plan.Version{Name: "v1", Served: true, Declarations: []decl.Declaration{
			unionsDecl(p(), rootMeta),
			unionsDecl(p("spec", "filters", "*"), typed),
		}, Collections: []plan.Collection{{Node: p("spec", "filters"), Pairing: plan.Unpaired}}},
		plan.Version{Name: "v2", Served: true, Declarations: []decl.Declaration{unionsDecl(p(), rootKind)}}), policy.Options{})
	var perr *policy.Error
	if !errors.As(err, &perr) {
		t.Fatalf("Normalizing = %v, want a *policy.Error", err)
	}
	want := []string{
		"version v1: .: the union has metadata as a member or discriminator: normalizing it would remove or rewrite the object's metadata",
		"version v2: .: the union has kind as a member or discriminator: normalizing it would remove or rewrite the object's kind",
	}
	if len(perr.Refusals) != len(want) {
		t.Fatalf("refusals:\n%v\nwant %d", err, len(want))
	}
	for i, r := range perr.Refusals {
		if !strings.HasPrefix(r.Error(), want[i]) {
			t.Errorf("refusal %d = %s\nwant it to start with %s", i, r.Error(), want[i])
		}
	}
	// A plan that does not say how the entries above a union pair is
	// no plan the compiler makes: an error, not a refusal.
	_, err = policy.Normalizing(testPlan("Namespaced", plan.Version{Name: "v1", Served: true,
		Declarations: []decl.Declaration{unionsDecl(p("spec", "byName", "*", "inner"), plain)}}), policy.Options{})
	if err == nil || errors.As(err, &perr) || !strings.Contains(err.Error(), "does not say how the entries of .spec.byName pair") {
		t.Errorf("Normalizing without the collection = %v", err)
	}
	one := testPlan("Cluster", plan.Version{Name: "v1", Served: true, Declarations: []decl.Declaration{unionsDecl(p("spec"), typed)}})
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
	if _, err := policy.Normalizing(one, policy.Options{NamespaceSelector: sel}); !errors.Is(err, policy.ErrClusterScopedNamespaceSelector) {
		t.Errorf("a namespace selector on a cluster-scoped CRD = %v, want ErrClusterScopedNamespaceSelector", err)
	}
	if _, err := policy.Normalizing(one, policy.Options{FailurePolicy: "Sometimes"}); err == nil || !strings.Contains(err.Error(), "want Fail or Ignore") {
		t.Errorf("failure policy Sometimes = %v", err)
	}
}

func TestName(t *testing.T) {
	if got, err := policy.Name("widgets.example.com", policy.KindNormalize, "v1"); err != nil || got != "widgets.example.com-mut2cel-normalize-v1" {
		t.Errorf("Name = %q, %v", got, err)
	}
	long := strings.Repeat("a", 240) + ".example.com"
	if _, err := policy.Name(long, policy.KindNormalize, "v1"); err == nil || !strings.Contains(err.Error(), "is not valid") {
		t.Errorf("Name of a %d-character CRD name = %v, want an error", len(long), err)
	}
}

func TestParseServiceAccount(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"ops:widget-controller", "system:serviceaccount:ops:widget-controller", true},
		{"ops", "", false},
		{"Ops:x", "", false},
		{":x", "", false},
		{"ops:", "", false},
	} {
		a, err := policy.ParseServiceAccount(tc.in)
		if (err == nil) != tc.ok || (tc.ok && a.Username() != tc.want) {
			t.Errorf("ParseServiceAccount(%q) = %v, %v", tc.in, a, err)
		}
	}
}
