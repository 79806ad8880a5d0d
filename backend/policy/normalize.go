package policy

import (
	"fmt"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/plan"
)

// Normalizer is the normalizing policy of one version and its binding.
type Normalizer struct {
	Version string
	Policy  *admissionregistrationv1.MutatingAdmissionPolicy
	Binding *admissionregistrationv1.MutatingAdmissionPolicyBinding
	// Unions are the unions the policy normalizes, one mutation each, in
	// the policy's order.
	Unions []Union
}

// Union is one union of a version and the node that declares it.
type Union struct {
	Node  decl.Path
	Union decl.Union
}

// Refusal is a union that cannot be normalized, and why.
type Refusal struct {
	// Kind is the kind of policy refused: KindValidate or KindNormalize.
	Kind    string
	Version string
	Node    decl.Path
	Detail  string
}

func (r Refusal) Error() string {
	return fmt.Sprintf("version %s: %s: %s", r.Version, r.Node, r.Detail)
}

// Error lists every refusal of one plan, in order.
type Error struct{ Refusals []Refusal }

func (e *Error) Error() string {
	lines := make([]string, len(e.Refusals))
	for i, r := range e.Refusals {
		lines[i] = r.Error()
	}
	return strings.Join(lines, "\n")
}

// Normalizing returns the normalizing policy and binding of every served
// version of p that has unions (docs/semantics.md 11.7), in the plan's
// order; none when no version has one. A union it cannot normalize makes
// it return an *Error listing each, and no policy.
func Normalizing(p *plan.Plan, o Options) ([]Normalizer, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	var out []Normalizer
	var refused []Refusal
	for _, v := range p.Versions {
		if !v.Served {
			continue
		}
		unions, err := versionUnions(v)
		if err != nil {
			return nil, err
		}
		var muts []admissionregistrationv1.Mutation
		for _, u := range unions {
			if why := refuse(u); why != "" {
				refused = append(refused, Refusal{Kind: KindNormalize, Version: v.Name, Node: u.Node, Detail: why})
				continue
			}
			expr, err := unionExpression(u, &v)
			if err != nil {
				return nil, fmt.Errorf("version %s: %v", v.Name, err)
			}
			muts = append(muts, admissionregistrationv1.Mutation{
				PatchType: admissionregistrationv1.PatchTypeJSONPatch,
				JSONPatch: &admissionregistrationv1.JSONPatch{Expression: expr},
			})
		}
		if len(unions) == 0 || len(refused) > 0 {
			continue
		}
		if p.Resource.Scope == "Cluster" && o.NamespaceSelector != nil {
			return nil, ErrClusterScopedNamespaceSelector
		}
		n, err := normalizer(p.Resource, v.Name, muts, o, statusUnions(unions))
		if err != nil {
			return nil, err
		}
		n.Unions = unions
		out = append(out, n)
	}
	if len(refused) > 0 {
		return nil, &Error{Refusals: refused}
	}
	return out, nil
}

// versionUnions reads the unions the plan declares for v, by node in the
// order of plan.Less, then as declared on the node.
func versionUnions(v plan.Version) ([]Union, error) {
	var out []Union
	for _, d := range v.Declarations {
		if d.Ext != decl.ExtUnions {
			continue
		}
		us, err := decl.ParseUnionsText(d.Value)
		if err != nil {
			return nil, fmt.Errorf("version %s: %s: %v", v.Name, d.Path, err)
		}
		for _, u := range us {
			out = append(out, Union{Node: d.Path, Union: u})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return plan.Less(out[i].Node, out[j].Node) })
	return out, nil
}

// statusUnions returns the subresource "status" when a union lies under
// .status: with the status subresource, the apiserver keeps the status
// of a write to it and drops that of a write to the resource (and the
// reverse for the rest), so normalizing on both is exact either way,
// and where the CRD has no such subresource the rule matches nothing.
func statusUnions(us []Union) []string {
	for _, u := range us {
		if len(u.Node) > 0 && !u.Node[0].Entries && u.Node[0].Name == "status" {
			return []string{"status"}
		}
	}
	return nil
}

// rootFields are the properties of the root that the apiserver owns or
// reads before any policy: a union there cannot remove or rewrite them.
var rootFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// refuse says why u cannot be normalized by a JSON patch, or "".
func refuse(u Union) string {
	if len(u.Node) == 0 {
		names := append(u.Union.MemberNames(), u.Union.Discriminator)
		for _, n := range names {
			if rootFields[n] {
				return fmt.Sprintf("the union has %s as a member or discriminator: normalizing it would remove or rewrite the object's %s", n, n)
			}
		}
	}
	return ""
}

// unionExpression is the JSONPatch expression of u: a walk to every
// instance of its node where it lies inside entries, the node alone
// where it does not.
func unionExpression(u Union, v *plan.Version) (string, error) {
	for _, s := range u.Node {
		if s.Entries {
			return entriesExpression(u.Node, u.Union, v)
		}
	}
	return normalizeExpression(u.Node, u.Union), nil
}

// normalizer builds the policy and binding of one version.
func normalizer(c plan.Resource, version string, muts []admissionregistrationv1.Mutation, o Options, subresources []string) (Normalizer, error) {
	name, err := Name(c.Name, KindNormalize, version)
	if err != nil {
		return Normalizer{}, err
	}
	ifNeeded := admissionregistrationv1.IfNeededReinvocationPolicy
	p := &admissionregistrationv1.MutatingAdmissionPolicy{
		TypeMeta:   typeMeta("MutatingAdmissionPolicy"),
		ObjectMeta: objectMeta(name, c.Name),
		Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
			MatchConstraints:   matchConstraints(c, version, subresources...),
			MatchConditions:    o.matchConditions(),
			FailurePolicy:      o.failurePolicy(),
			ReinvocationPolicy: ifNeeded,
			Mutations:          muts,
		},
	}
	b := &admissionregistrationv1.MutatingAdmissionPolicyBinding{
		TypeMeta:   typeMeta("MutatingAdmissionPolicyBinding"),
		ObjectMeta: objectMeta(name, c.Name),
		Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{
			PolicyName:     name,
			MatchResources: o.bindingMatch(),
		},
	}
	return Normalizer{Version: version, Policy: p, Binding: b}, nil
}
