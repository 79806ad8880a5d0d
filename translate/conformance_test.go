package translate_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// crdWith wraps a version schema, given as YAML, in a minimal v1 CRD.
func crdWith(t testing.TB, schemaYAML string) map[string]interface{} {
	t.Helper()
	return testcrd.WithSchema(t, schemaYAML)
}

func typedCRD(t testing.TB, doc map[string]interface{}) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(data, crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// translated translates a one-version CRD and returns the structural schema
// of the result, after checking it passes the apiserver's CRD validation.
func translated(t testing.TB, schemaYAML string, v translate.KubeVersion) *schema.Structural {
	t.Helper()
	res, err := translate.Translate(crdWith(t, schemaYAML), translate.Options{KubeVersion: v})
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	crd := typedCRD(t, res.Translated)
	errs, err := kube.ValidateCRD(crd)
	if err != nil || len(errs) > 0 {
		t.Fatalf("translated CRD fails validation: %v %v", err, errs)
	}
	s, err := kube.Structural(crd.Spec.Versions[0].Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func objectOf(t testing.TB, y string) map[string]interface{} {
	t.Helper()
	// Through JSON, as a client sends it: integers stay integers (a YAML
	// decoder would give float64, which the apiserver's CEL refuses where
	// the schema says integer). An object written in JSON is decoded as
	// written, so that 1.0 and 1e0 stay floats, as a request spelling them
	// so decodes; the YAML to JSON conversion would write them as 1.
	var m map[string]interface{}
	if err := utiljson.Unmarshal([]byte(y), &m); err == nil {
		if m == nil {
			m = map[string]interface{}{}
		}
		return m
	}
	data, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatalf("object %s: %v", y, err)
	}
	if err := utiljson.Unmarshal(data, &m); err != nil {
		t.Fatalf("object %s: %v", y, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m
}

// nativeDenies runs the reference checker on the same stored pair.
func nativeDenies(t testing.TB, checker *reference.Checker, s *schema.Structural, oldYAML, newYAML string) (bool, string) {
	t.Helper()
	old, err := kube.RoundTrip(kube.Store(s, objectOf(t, oldYAML)))
	if err != nil {
		t.Fatal(err)
	}
	nw := kube.Store(s, objectOf(t, newYAML))
	violations := checker.Check(old, nw)
	if len(violations) == 0 {
		return false, ""
	}
	return true, fmt.Sprint(violations)
}

// checkerFor reads the declarations of a version schema given as YAML.
func checkerFor(t testing.TB, schemaYAML string) *reference.Checker {
	t.Helper()
	var raw map[string]interface{}
	if err := yaml.Unmarshal([]byte(schemaYAML), &raw); err != nil {
		t.Fatal(err)
	}
	c, err := reference.NewChecker(raw)
	if err != nil {
		t.Fatalf("NewChecker: %v", err)
	}
	return c
}

// celDenies runs the real CEL validator on an update after the storage
// pipeline and reports whether it denies it, with the errors.
func celDenies(t testing.TB, s *schema.Structural, oldYAML, newYAML string) (bool, string) {
	t.Helper()
	old, err := kube.RoundTrip(kube.Store(s, objectOf(t, oldYAML)))
	if err != nil {
		t.Fatal(err)
	}
	nw := kube.Store(s, objectOf(t, newYAML))
	errs := kube.ValidateUpdate(s, nw, old)
	if len(errs) == 0 {
		return false, ""
	}
	return true, errs.ToAggregate().Error()
}

// failedToEvaluate reports whether the apiserver's validator messages say
// that a rule could not be evaluated, rather than that it returned false.
func failedToEvaluate(msg string) bool {
	return strings.Contains(msg, " evaluating rule: ") || strings.Contains(msg, "call arguments did not match")
}

// transition is one update and the declaration values that allow it: a
// string of I (Immutable), A (AddOnly), R (RemoveOnly).
type transition struct {
	old, new string
	allow    string
}

// verdictCase is a schema with a %s placeholder for the declaration value.
type verdictCase struct {
	name        string
	schema      string
	values      string // which of I, A, R to instantiate; default "IAR"
	transitions []transition
}

// runVerdicts translates every case at every version and checks that the
// apiserver's CEL validator and the reference checker both give the expected
// verdict on every transition.
func runVerdicts(t *testing.T, cases []verdictCase, versions []translate.KubeVersion) {
	for _, c := range cases {
		values := c.values
		if values == "" {
			values = "IAR"
		}
		for i := range values {
			value := testcrd.ValueNames[values[i]]
			schemaYAML := strings.ReplaceAll(c.schema, "%s", value)
			checker := checkerFor(t, schemaYAML)
			for _, v := range versions {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, value, v), func(t *testing.T) {
					s := translated(t, schemaYAML, v)
					for _, tr := range c.transitions {
						checkVerdict(t, checker, s, tr.old, tr.new, !strings.ContainsRune(tr.allow, rune(values[i])))
					}
				})
			}
		}
	}
}

// checkVerdict requires the apiserver's CEL validator and the reference
// checker both to deny the update from oldYAML to newYAML exactly when
// wantDeny, and every rule to return a verdict.
func checkVerdict(t *testing.T, checker *reference.Checker, s *schema.Structural, oldYAML, newYAML string, wantDeny bool) {
	t.Helper()
	deny, msg := celDenies(t, s, oldYAML, newYAML)
	if deny != wantDeny {
		t.Errorf("update %s -> %s: CEL denied=%v (%s), want denied=%v", oldYAML, newYAML, deny, msg, wantDeny)
	}
	if failedToEvaluate(msg) {
		t.Errorf("update %s -> %s: a rule failed to evaluate (%s); rules must return a verdict", oldYAML, newYAML, msg)
	}
	if deny, msg := nativeDenies(t, checker, s, oldYAML, newYAML); deny != wantDeny {
		t.Errorf("update %s -> %s: reference checker denied=%v (%s), want denied=%v", oldYAML, newYAML, deny, msg, wantDeny)
	}
}
