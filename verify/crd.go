package verify

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/internal/kube"
)

// CRDName returns metadata.name of a decoded CRD document, "" when absent.
func CRDName(doc map[string]interface{}) string { return readCRD(doc).Name }

// readCRD reads the model of a CRD document; a missing document has no
// name and no versions.
func readCRD(doc map[string]interface{}) *crd.CRD {
	c, err := crd.Read(doc)
	if err != nil {
		return &crd.CRD{}
	}
	return c
}

// crdVersions are the entries of spec.versions of a decoded CRD document.
func crdVersions(doc map[string]interface{}) []*crd.Version { return readCRD(doc).Versions }

// findVersion is the first of vs named name.
func findVersion(vs []*crd.Version, name string) (*crd.Version, bool) {
	for _, v := range vs {
		if v.Name == name {
			return v, true
		}
	}
	return nil, false
}

// typedCRD decodes a CRD document into the apiserver's v1 types.
func typedCRD(doc map[string]interface{}) (*apiextensionsv1.CustomResourceDefinition, error) {
	return readCRD(doc).Typed()
}

// checkTranslated runs the apiserver's CRD validation on the CRD under
// test, and, when minor is set, compiles its rules in the environment
// Kubernetes 1.minor uses for new CRD rules.
func checkTranslated(typed *apiextensionsv1.CustomResourceDefinition, tested *crd.CRD, minor int) error {
	errs, err := kube.ValidateCRD(typed)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("the CRD under test fails the apiserver's validation: %w", errs.ToAggregate())
	}
	if minor == 0 {
		return nil
	}
	for _, v := range tested.Versions {
		if v.Raw == nil {
			continue
		}
		s, err := v.Structural()
		if err != nil {
			return schemaErr(err)
		}
		if err := compileAll(s, crd.SchemaField(v.Index), true, minor); err != nil {
			return err
		}
	}
	return nil
}

// schemaErr is the apiserver's own error of a schema the model could not
// convert, as verify has always reported it: its place is said by the
// caller.
func schemaErr(err error) error {
	var se *crd.SchemaError
	if errors.As(err, &se) {
		return se.Err
	}
	return err
}

// compileAll compiles the rules of s and every node below it.
func compileAll(s *schema.Structural, path *field.Path, isRoot bool, minor int) error {
	if len(s.XValidations) > 0 {
		// An embedded resource is a resource root: its rules see apiVersion,
		// kind and metadata, as the apiserver's validator declares them.
		results, err := kube.CompileRules(s, isRoot || s.XEmbeddedResource, kube.NewRuleEnvSet(minor))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for i, r := range results {
			if r.Error != nil {
				return fmt.Errorf("%s: rule %q does not compile for Kubernetes 1.%d: %s",
					path.Child("x-kubernetes-validations").Index(i), s.XValidations[i].Rule, minor, r.Error.Detail)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		if err := compileAll(&p, path.Child("properties").Key(name), false, minor); err != nil {
			return err
		}
	}
	if s.Items != nil {
		if err := compileAll(s.Items, path.Child("items"), false, minor); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		return compileAll(s.AdditionalProperties.Structural, path.Child("additionalProperties"), false, minor)
	}
	return nil
}
