package costest_test

import (
	"encoding/json"
	"strconv"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func quote(s string) string { return strconv.Quote(s) }

// versionSchema returns the first version's schema of a CRD document.
func versionSchema(t testing.TB, doc map[string]interface{}) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(data, crd); err != nil {
		t.Fatal(err)
	}
	return crd.Spec.Versions[0].Schema.OpenAPIV3Schema
}
