package kube

import (
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateObject runs the schema validation the apiserver applies to a
// custom resource before its CEL rules: the OpenAPI value validations of
// props (types, patterns, bounds, enums, required) and the uniqueness of
// set items and list-map keys. x-kubernetes-validations rules are not run.
// s is the structural form of props.
func ValidateObject(props *apiextensionsv1.JSONSchemaProps, s *schema.Structural, obj map[string]interface{}) (field.ErrorList, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(props, internal, nil); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return nil, err
	}
	errs := apiservervalidation.ValidateCustomResource(nil, obj, validator)
	return append(errs, listtype.ValidateListSetsAndMaps(nil, s, obj)...), nil
}
