package admit

import (
	"context"
	"fmt"
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
)

// Validating evaluates one ValidatingAdmissionPolicy with the apiserver's
// own code: its CEL compiler, its match conditions and its validator.
type Validating struct {
	policy    *admissionregistrationv1.ValidatingAdmissionPolicy
	validator validating.Validator
}

// NewValidating compiles policy as the apiserver's ValidatingAdmissionPolicy
// plugin compiles it (validating.compilePolicy, which is not exported, in
// the same steps with the exported parts). A policy that does not compile
// is an error here; the apiserver would deny or ignore every request by
// its failure policy.
func NewValidating(policy *admissionregistrationv1.ValidatingAdmissionPolicy) (*Validating, error) {
	if policy.Spec.ParamKind != nil {
		return nil, fmt.Errorf("policy %s: policies with parameters are not evaluated here", policy.Name)
	}
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: false, HasAuthorizer: true}
	messageVars := plugincel.OptionalVariableDeclarations{HasParams: false, HasAuthorizer: false}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return nil, err
	}
	var variables []plugincel.NamedExpressionAccessor
	for _, v := range policy.Spec.Variables {
		variables = append(variables, &validating.Variable{Name: v.Name, Expression: v.Expression})
	}
	compiler.CompileAndStoreVariables(variables, optionalVars, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if len(policy.Spec.MatchConditions) > 0 {
		conditions := make([]plugincel.ExpressionAccessor, len(policy.Spec.MatchConditions))
		for i := range policy.Spec.MatchConditions {
			conditions[i] = (*matchconditions.MatchCondition)(&policy.Spec.MatchConditions[i])
		}
		matcher = matchconditions.NewMatcher(compiler.CompileCondition(conditions, optionalVars, environment.StoredExpressions), policy.Spec.FailurePolicy, "policy", "validate", policy.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(policy.Spec.Validations))
	for i, v := range policy.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	filter := compiler.CompileCondition(validations, optionalVars, environment.StoredExpressions)
	for i, r := range filter.CompilationErrors() {
		return nil, fmt.Errorf("policy %s: validation %d does not compile: %v", policy.Name, i, r)
	}
	v := validating.NewValidator(filter, matcher,
		compiler.CompileCondition(nil, optionalVars, environment.StoredExpressions),
		compiler.CompileCondition(messages, messageVars, environment.StoredExpressions),
		policy.Spec.FailurePolicy, nil)
	return &Validating{policy: policy, validator: v}, nil
}

// Request is one admission request of a custom resource: Old is nil on
// CREATE, New on DELETE.
type Request struct {
	Resource    schema.GroupVersionResource
	Kind        schema.GroupVersionKind
	Subresource string
	Old, New    map[string]interface{}
	// User is the requesting user's name; empty is a plain user.
	User string
}

// Decision is the outcome of one request: the messages of the validations
// that denied it, and of those that failed to evaluate (which deny it
// under failurePolicy Fail).
type Decision struct {
	Denied, Errors []string
}

// Validate decides req with the policy's validations, with the runtime
// cost budget of a real apiserver.
func (v *Validating) Validate(req Request) Decision {
	attrs := attributes(req)
	result := v.validator.Validate(context.Background(), req.Resource, attrs, nil, nil, celconfig.RuntimeCELCostBudget, nil)
	var d Decision
	for _, dec := range result.Decisions {
		switch dec.Evaluation {
		case validating.EvalDeny:
			d.Denied = append(d.Denied, dec.Message)
		case validating.EvalError:
			d.Errors = append(d.Errors, dec.Message)
		}
	}
	sort.Strings(d.Denied)
	sort.Strings(d.Errors)
	return d
}

func attributes(req Request) *admission.VersionedAttributes {
	var obj, old *unstructured.Unstructured
	op := admission.Update
	switch {
	case req.Old == nil:
		op = admission.Create
	case req.New == nil:
		op = admission.Delete
	}
	if req.New != nil {
		obj = &unstructured.Unstructured{Object: req.New}
	}
	if req.Old != nil {
		old = &unstructured.Unstructured{Object: req.Old}
	}
	name, namespace := "", ""
	if m, ok := pick(req.New, req.Old)["metadata"].(map[string]interface{}); ok {
		name, _ = m["name"].(string)
		namespace, _ = m["namespace"].(string)
	}
	who := &user.DefaultInfo{Name: req.User}
	if who.Name == "" {
		who.Name = "someone"
	}
	var record admission.Attributes
	switch {
	case obj != nil && old != nil:
		record = admission.NewAttributesRecord(obj, old, req.Kind, namespace, name, req.Resource, req.Subresource, op, nil, false, who)
	case obj != nil:
		record = admission.NewAttributesRecord(obj, nil, req.Kind, namespace, name, req.Resource, req.Subresource, op, nil, false, who)
	default:
		record = admission.NewAttributesRecord(nil, old, req.Kind, namespace, name, req.Resource, req.Subresource, op, nil, false, who)
	}
	attrs := &admission.VersionedAttributes{Attributes: record, VersionedKind: req.Kind}
	if obj != nil {
		attrs.VersionedObject = admission.NewLazyObject(obj)
	}
	if old != nil {
		attrs.VersionedOldObject = admission.NewLazyObject(old)
	}
	return attrs
}

func pick(a, b map[string]interface{}) map[string]interface{} {
	if a != nil {
		return a
	}
	return b
}
