// Package kube wraps the pieces of k8s.io/apiextensions-apiserver that mut2cel
// runs exactly as the apiserver does: structural schema conversion, the
// storage pipeline a custom resource goes through, the CEL validator (with
// the ratcheting of updates) and CRD validation. Nothing here re-implements
// Kubernetes behaviour; it only wires the real packages together so that
// translate, verify and the tests share one definition of "what the
// apiserver does".
package kube

import (
	"encoding/json"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Structural converts a v1 schema to the apiserver's structural model. It
// reports the apiserver's own structural errors for non-structural input.
func Structural(props *apiextensionsv1.JSONSchemaProps) (*schema.Structural, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(props, internal, nil); err != nil {
		return nil, err
	}
	s, err := schema.NewStructural(internal)
	if err != nil {
		return nil, err
	}
	if errs := schema.ValidateStructural(field.NewPath("openAPIV3Schema"), s); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return s, nil
}

// Store runs obj through the steps the apiserver applies before it persists a
// custom resource: pruning of unknown fields, dropping nulls of non-nullable
// fields without default, and defaulting. The object is modified in place and
// returned for convenience.
func Store(s *schema.Structural, obj map[string]interface{}) map[string]interface{} {
	pruning.PruneWithOptions(obj, s, true, schema.UnknownFieldPathOptions{})
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	defaulting.Default(obj, s)
	return obj
}

// RoundTrip writes obj as JSON and reads it back the way storage does, so
// that a number written as 1.0 is read back as the integer 1.
func RoundTrip(obj map[string]interface{}) (map[string]interface{}, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := unmarshalJSON(data, &out); err != nil {
		return nil, fmt.Errorf("reading back stored object: %w", err)
	}
	return out, nil
}

// ValidateUpdate evaluates every x-kubernetes-validations rule of s on an
// update from oldObj to newObj, with the apiserver's runtime cost limits.
// oldObj nil means create. It compiles the rules on every call; callers that
// validate many objects against one schema use NewRuleValidator once.
func ValidateUpdate(s *schema.Structural, newObj, oldObj map[string]interface{}) field.ErrorList {
	return NewRuleValidator(s).Validate(newObj, oldObj)
}

// StoreValue runs a value found below the root through the steps of Store,
// with the schema of its position: what the value of a list item or map
// entry becomes in storage. Maps and lists are changed in place.
func StoreValue(s *schema.Structural, v interface{}) interface{} {
	pruning.PruneWithOptions(v, s, s.XEmbeddedResource, schema.UnknownFieldPathOptions{})
	defaulting.PruneNonNullableNullsWithoutDefaults(v, s)
	defaulting.Default(v, s)
	return v
}
