package kube

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// ValidateCRD runs the apiserver's validation of a CRD create request:
// defaulting, conversion to the internal type, and
// ValidateCustomResourceDefinition, which also compiles every rule and checks
// its estimated cost against the static limits.
func ValidateCRD(crd *apiextensionsv1.CustomResourceDefinition) (field.ErrorList, error) {
	crd = crd.DeepCopy()
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
		return nil, fmt.Errorf("converting the CRD to the apiserver's internal type: %w", err)
	}
	// A created CRD records its storage version; validation requires it.
	internal.Status.StoredVersions = nil
	for _, v := range internal.Spec.Versions {
		if v.Storage {
			internal.Status.StoredVersions = append(internal.Status.StoredVersions, v.Name)
		}
	}
	return validation.ValidateCustomResourceDefinition(context.Background(), internal), nil
}

// NewRuleEnvSet is the CEL environment a Kubernetes 1.minor apiserver uses to
// compile rules of a new or changed CRD: the environment of the previous
// minor release, so that a rollback by one release keeps working.
func NewRuleEnvSet(minor int) *environment.EnvSet {
	return environment.MustBaseEnvSet(version.MajorMinor(1, uint(minor-1)))
}

// CompileRules compiles the x-kubernetes-validations of one schema node as a
// new rule in env, returning one result per rule.
func CompileRules(s *schema.Structural, isRoot bool, env *environment.EnvSet) ([]cel.CompilationResult, error) {
	return cel.Compile(s, model.SchemaDeclType(s, isRoot), celconfig.PerCallLimit, env, cel.NewExpressionsEnvLoader())
}
