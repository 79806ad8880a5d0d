package kube

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// RuleValidator runs the x-kubernetes-validations rules of one schema, as
// the apiserver's custom resource strategy does: the rules are compiled
// once, when the validator is built, and evaluated on every call.
type RuleValidator struct {
	s *schema.Structural
	v *cel.Validator // nil when the schema has no rules
}

// NewRuleValidator compiles the rules of s in the environment the apiserver
// uses for stored rules.
func NewRuleValidator(s *schema.Structural) *RuleValidator {
	return &RuleValidator{s: s, v: cel.NewValidator(s, true, celconfig.PerCallLimit)}
}

// Validate evaluates the rules on an update from oldObj to newObj with the
// apiserver's runtime cost limits; oldObj nil means create, where transition
// rules do not run.
func (r *RuleValidator) Validate(newObj, oldObj map[string]interface{}) field.ErrorList {
	if r.v == nil {
		return nil
	}
	// A nil map in an interface is not nil: the validator would treat it as
	// an old object and run transition rules on create.
	var old interface{}
	if oldObj != nil {
		old = oldObj
	}
	errs, _ := r.v.Validate(context.Background(), nil, r.s, newObj, old, celconfig.RuntimeCELCostBudget)
	return errs
}

// ValidateRatcheting evaluates the rules on an update as the apiserver's
// custom resource strategy does with CRDValidationRatcheting on (the
// default from Kubernetes 1.30, locked on from 1.33): an error of a rule
// that does not read oldSelf is dropped where the node it is raised on,
// or for a node the apiserver does not correlate (items of atomic and
// set lists, and what is below them) its nearest correlated ancestor, is
// deep-equal to its old value.
func (r *RuleValidator) ValidateRatcheting(newObj, oldObj map[string]interface{}) field.ErrorList {
	if r.v == nil {
		return nil
	}
	correlated := common.NewCorrelatedObject(newObj, oldObj, &model.Structural{Structural: r.s})
	errs, _ := r.v.Validate(context.Background(), nil, r.s, newObj, oldObj, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(correlated))
	return errs
}

// ObjectValidator decides whether an object is one the apiserver accepts on
// create: the OpenAPI schema validation, the uniqueness of list-type set
// items and map keys, and the rules that do not read oldSelf.
type ObjectValidator struct {
	s       *schema.Structural
	schema  apiservervalidation.SchemaValidator
	openapi *spec.Schema
	rules   *RuleValidator
}

// NewObjectValidator builds the validators of one version schema.
func NewObjectValidator(props *apiextensionsv1.JSONSchemaProps) (*ObjectValidator, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(props, internal, nil); err != nil {
		return nil, err
	}
	s, err := Structural(props)
	if err != nil {
		return nil, err
	}
	sv, openapi, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return nil, fmt.Errorf("building the schema validator: %w", err)
	}
	return &ObjectValidator{s: s, schema: sv, openapi: openapi, rules: NewRuleValidator(s)}, nil
}

// Parts are what Validate runs: the schema the apiserver's schema
// validator holds objects to (the version's schema in kube-openapi's
// form, without the formats the apiserver does not support), its
// structural form, for the uniqueness of set items and list-map keys,
// and the apiserver's validator of its rules, nil when it has none.
func (o *ObjectValidator) Parts() (*spec.Schema, *schema.Structural, *cel.Validator) {
	return o.openapi, o.s, o.rules.v
}

// Validate returns every reason the apiserver would refuse to create obj.
// obj is in stored form (see Store).
func (o *ObjectValidator) Validate(obj map[string]interface{}) field.ErrorList {
	errs := apiservervalidation.ValidateCustomResource(nil, obj, o.schema)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, o.s, obj)...)
	if len(errs) > 0 {
		return errs
	}
	return o.rules.Validate(obj, nil)
}
