package costest

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/library"
	"sigs.k8s.io/yaml"
)

// TestPolicyRuntimeCostUnderEstimate runs policy expressions, in the
// environment EstimatePolicy compiles them in and with the runtime cost
// tracking the apiserver uses, on the largest objects a small schema
// allows, chosen so that no walk stops early (every port has the same
// name, so every pair is compared in full), and checks that the cost the
// runtime charges stays under the estimate: sizes read from the schema,
// including the policySizes cases that differ from the apiserver's
// sizeEstimator, must bound what the runtime sees.
func TestPolicyRuntimeCostUnderEstimate(t *testing.T) {
	root := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.UnmarshalStrict([]byte(`type: object
properties:
  spec:
    type: object
    properties:
      class: {type: string, maxLength: 63}
      ports:
        type: array
        maxItems: 16
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string, maxLength: 15}
            port: {type: integer}
      backend:
        type: object
        properties:
          type: {type: string, enum: [Service, Bucket]}
          service: {type: string, maxLength: 253}
          bucket: {type: string, maxLength: 63}
`), root); err != nil {
		t.Fatal(err)
	}
	object := func() map[string]interface{} {
		var ports []interface{}
		for range 16 {
			ports = append(ports, map[string]interface{}{"name": strings.Repeat("p", 15), "port": int64(80)})
		}
		return map[string]interface{}{"spec": map[string]interface{}{
			"class": strings.Repeat("c", 63),
			"ports": ports,
			"backend": map[string]interface{}{
				"type": "Bucket", "service": strings.Repeat("s", 253), "bucket": strings.Repeat("b", 63),
			},
		}}
	}
	exprs := []string{
		`oldObject == null || !('spec' in object) || !('spec' in oldObject) || object.spec.class == oldObject.spec.class`,
		`object.spec.ports.all(n, oldObject.spec.ports.all(o, !((('name' in n && n.name != null) ? n.name : null) == (('name' in o && o.name != null) ? o.name : null)) || n.port == o.port))`,
		`type(object.spec.backend) == null_type || oldObject.spec.backend.all(k, k in ['bucket', 'service', 'type'] && k in object.spec.backend) && object.spec.backend.service == oldObject.spec.backend.service`,
		`[has(object.spec.backend.service), has(object.spec.backend.bucket)].filter(x, x).size() <= 2`,
	}
	report, err := EstimatePolicy(root, Policy{Expressions: exprs})
	if err != nil {
		t.Fatal(err)
	}
	env, err := policyEnv()
	if err != nil {
		t.Fatal(err)
	}
	for i, expr := range exprs {
		ast, issues := env.Compile(expr)
		if issues.Err() != nil {
			t.Fatalf("%s: %v", expr, issues.Err())
		}
		prg, err := env.Program(ast, cel.CostTracking(&library.CostEstimator{}), cel.CostLimit(celconfig.PerCallLimit))
		if err != nil {
			t.Fatal(err)
		}
		out, det, err := prg.Eval(map[string]interface{}{"object": object(), "oldObject": object()})
		if err != nil || out.Value() != true {
			t.Fatalf("%s = %v, %v; want true", expr, out, err)
		}
		actual, estimate := *det.ActualCost(), report.Costs[i].PerCall
		if actual > estimate || actual == 0 {
			t.Errorf("%s: runtime cost %d, estimate %d; want 0 < runtime <= estimate", expr, actual, estimate)
		}
		t.Logf("%s: runtime %d, estimate %d", report.Costs[i].Path(), actual, estimate)
	}
}
