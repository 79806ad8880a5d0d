package admit

import (
	"context"
	"fmt"
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
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

// Decision is the outcome of one request: the messages of the validations
// that denied it, and of those that failed to evaluate (which deny it
// under failurePolicy Fail).
type Decision struct {
	Denied, Errors []string
}

// Validate decides r with the policy's validations, with the runtime
// cost budget of a real apiserver.
func (v *Validating) Validate(r Request) (Decision, error) {
	attrs, err := r.versioned()
	if err != nil {
		return Decision{}, err
	}
	result := v.validator.Validate(context.Background(), r.Resource, attrs, nil, nil, celconfig.RuntimeCELCostBudget, nil)
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
	return d, nil
}
