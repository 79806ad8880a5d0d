package costest_test

import (
	"encoding/json"
	"flag"
	"os"
	"strconv"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

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

func checkGoldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, got)
	}
}
