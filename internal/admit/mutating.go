package admit

import (
	"context"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Mutator is a compiled MutatingAdmissionPolicy.
type Mutator struct {
	policy   *admissionregistrationv1.MutatingAdmissionPolicy
	compiler *plugincel.CompositedCompiler
	matcher  matchconditions.Matcher
	// evaluators and patchers are one per mutation, in order: the
	// evaluator alone measures a mutation's cost, the patcher applies it.
	evaluators []plugincel.MutatingEvaluator
	patchers   []patch.Patcher
}

// Mutating compiles policy as the apiserver does. It returns the
// compilation errors of every expression at once; the apiserver would
// keep them and fail each request the policy matches.
func Mutating(policy *admissionregistrationv1.MutatingAdmissionPolicy) (*Mutator, error) {
	opts := plugincel.OptionalVariableDeclarations{HasParams: policy.Spec.ParamKind != nil, HasAuthorizer: true}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, v := range policy.Spec.Variables {
		r := compiler.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, opts, environment.StoredExpressions)
		if r.Error != nil {
			errs = append(errs, fmt.Errorf("variable %s: %v", v.Name, r.Error))
		}
	}
	m := &Mutator{policy: policy, compiler: compiler}
	if conds := policy.Spec.MatchConditions; len(conds) > 0 {
		accessors := make([]plugincel.ExpressionAccessor, len(conds))
		for i := range conds {
			accessors[i] = (*matchconditions.MatchCondition)(&conds[i])
		}
		eval := compiler.CompileCondition(accessors, opts, environment.StoredExpressions)
		errs = append(errs, eval.CompilationErrors()...)
		m.matcher = matchconditions.NewMatcher(eval, policy.Spec.FailurePolicy, "policy", "validate", policy.Name)
	}
	patchOpts := opts
	patchOpts.HasPatchTypes = true
	for i, mu := range policy.Spec.Mutations {
		if mu.PatchType != admissionregistrationv1.PatchTypeJSONPatch || mu.JSONPatch == nil {
			errs = append(errs, fmt.Errorf("mutation %d: only JSONPatch mutations are evaluated here, got %s", i, mu.PatchType))
			continue
		}
		eval := compiler.CompileMutatingEvaluator(&patch.JSONPatchCondition{Expression: mu.JSONPatch.Expression}, patchOpts, environment.StoredExpressions)
		for _, err := range eval.CompilationErrors() {
			errs = append(errs, fmt.Errorf("mutation %d: %v", i, err))
		}
		m.evaluators = append(m.evaluators, eval)
		m.patchers = append(m.patchers, patch.NewJSONPatcher(eval))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("policy %s: %w", policy.Name, joinErrors(errs))
	}
	return m, nil
}

// Request is one admission request for a custom resource.
type Request struct {
	Operation admission.Operation // admission.Create or admission.Update
	Resource  schema.GroupVersionResource
	Kind      schema.GroupVersionKind
	Namespace string
	// Object and OldObject are the new and old objects as JSON maps;
	// OldObject is nil on create.
	Object, OldObject map[string]interface{}
	// User sends the request; nil is an anonymous user.
	User user.Info
}

// Result is what a policy made of one request.
type Result struct {
	// Matched is false when a match condition excluded the request:
	// then no mutation ran and Object is the request's object.
	Matched bool
	// Object is the object after every mutation.
	Object map[string]interface{}
	// Costs are the runtime costs of the mutations, in order.
	Costs []int64
}

// Mutate runs the policy on r as the apiserver's dispatcher runs one
// invocation: the match conditions, then each mutation on the object the
// previous one left. An error is what the apiserver would turn into a
// failed request (failurePolicy Fail) or an ignored policy (Ignore).
func (m *Mutator) Mutate(ctx context.Context, r Request) (*Result, error) {
	attr, err := r.versioned()
	if err != nil {
		return nil, err
	}
	ctx = m.compiler.CreateContext(ctx)
	if m.matcher != nil {
		res := m.matcher.Match(ctx, attr, nil, nil)
		if res.Error != nil {
			return nil, res.Error
		}
		if !res.Matches {
			return &Result{Object: r.Object}, nil
		}
	}
	o := admission.NewObjectInterfacesFromScheme(runtime.NewScheme())
	out := &Result{Matched: true}
	for i, p := range m.patchers {
		cost, err := m.cost(ctx, i, attr)
		if err != nil {
			return nil, fmt.Errorf("mutation %d: %w", i, err)
		}
		out.Costs = append(out.Costs, cost)
		obj, err := p.Patch(ctx, patch.Request{MatchedResource: r.Resource, VersionedAttributes: attr, ObjectInterfaces: o}, celconfig.RuntimeCELCostBudget)
		if err != nil {
			return nil, fmt.Errorf("mutation %d: %w", i, err)
		}
		attr.UpdateObject(obj)
	}
	u, ok := attr.VersionedObject.Object().(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("the patched object is a %T, not unstructured", attr.VersionedObject.Object())
	}
	out.Object = u.Object
	return out, nil
}

// cost evaluates mutation i alone and returns what it spent.
func (m *Mutator) cost(ctx context.Context, i int, attr *admission.VersionedAttributes) (int64, error) {
	req := plugincel.CreateAdmissionRequest(attr.Attributes, metavOf(attr.GetResource()), metavKind(attr.VersionedKind))
	budget := int64(celconfig.RuntimeCELCostBudget)
	res, left, err := m.evaluators[i].ForInput(ctx, attr, req, plugincel.OptionalVariableBindings{}, nil, budget)
	if err != nil {
		return 0, err
	}
	if res.Error != nil {
		return 0, res.Error
	}
	return budget - left, nil
}

func (r Request) versioned() (*admission.VersionedAttributes, error) {
	var obj, old runtime.Object
	if r.Object != nil {
		obj = &unstructured.Unstructured{Object: deepCopy(r.Object)}
	}
	if r.OldObject != nil {
		old = &unstructured.Unstructured{Object: deepCopy(r.OldObject)}
	}
	userInfo := r.User
	if userInfo == nil {
		userInfo = &user.DefaultInfo{Name: "system:anonymous"}
	}
	name := ""
	if u, ok := obj.(*unstructured.Unstructured); ok {
		name = u.GetName()
	}
	attr := admission.NewAttributesRecord(obj, old, r.Kind, r.Namespace, name, r.Resource, "", r.Operation, nil, false, userInfo)
	return admission.NewVersionedAttributes(attr, r.Kind, admission.NewObjectInterfacesFromScheme(runtime.NewScheme()))
}
