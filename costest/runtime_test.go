package costest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"sigs.k8s.io/yaml"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// unboundedStringLength is the length given to strings without maxLength
// in the objects below: the estimate assumes up to the 3 MiB request
// limit, which would only make the check weaker.
const unboundedStringLength = 300

// TestRuntimeCostUnderEstimate evaluates the rules of the translated
// examples, with and without added bounds, on the largest objects their
// schemas allow (every optional field set, every list, map and string at
// its bound) and checks the cost the CEL runtime actually charges stays
// under the estimate: the whole object under the version total, as the
// runtime per-object budget is charged.
func TestRuntimeCostUnderEstimate(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var opts []translate.Options
	for range files {
		opts = append(opts, translate.Options{})
	}
	// Bounds chosen by translate reach 100,000 map entries, too many to
	// build here; explicit values exercise the same rules.
	files = append(files, "../cmd/mut2cel/testdata/cost/needs-bounds.yaml")
	opts = append(opts, translate.Options{MaxItems: 64, MaxProperties: 128})
	for i, file := range files {
		for _, minor := range []int{31, 33} {
			t.Run(fmt.Sprintf("%s/1.%d", filepath.Base(file), minor), func(t *testing.T) {
				o := opts[i]
				o.KubeVersion = translate.KubeVersion{Major: 1, Minor: minor}
				root := translatedSchema(t, file, o)
				report, err := costest.Estimate(root, kube.NewRuleEnvSet(minor))
				if err != nil {
					t.Fatal(err)
				}
				s, err := kube.Structural(root)
				if err != nil {
					t.Fatal(err)
				}
				obj := largest(s).(map[string]interface{})
				used := runtimeCost(t, s, obj)
				if excess := knownExcess(root, report); used > report.Total+excess {
					t.Errorf("runtime cost %d exceeds the estimated total %d plus the known excess %d", used, report.Total, excess)
				}
				t.Logf("runtime cost %d, estimate %d", used, report.Total)
			})
		}
	}
}

// knownExcess is what the runtime may charge beyond the estimate: cel-go
// estimates self == oldSelf on an object with fixed properties, or on an
// integer, number or boolean, at 0, and charges one tenth of the object's
// property count, rounded up, or 1 for a scalar (see the shape table).
func knownExcess(root *apiextensionsv1.JSONSchemaProps, r *costest.Report) uint64 {
	var excess uint64
	for _, c := range r.Costs {
		if c.Expression != "self == oldSelf" {
			continue
		}
		n := nodeAt(root, c.Node)
		switch {
		case n.Type == "object" && n.AdditionalProperties == nil:
			excess += c.Cardinality * uint64((len(n.Properties)+9)/10)
		case n.Type == "integer" || n.Type == "number" || n.Type == "boolean":
			excess += c.Cardinality
		}
	}
	return excess
}

func nodeAt(n *apiextensionsv1.JSONSchemaProps, node []string) *apiextensionsv1.JSONSchemaProps {
	for i := 0; i < len(node); i++ {
		switch node[i] {
		case "properties":
			p := n.Properties[node[i+1]]
			n = &p
			i++
		case "items":
			n = n.Items.Schema
		case "additionalProperties":
			n = n.AdditionalProperties.Schema
		}
	}
	return n
}

// TestRuntimeCostPerCall evaluates each rule of the shape table once, on
// the largest value its schema allows, and checks the runtime charge stays
// under the per-call estimate times the cardinality.
func TestRuntimeCostPerCall(t *testing.T) {
	for _, tt := range ruleShapes {
		t.Run(tt.name, func(t *testing.T) {
			root := schemaFrom(t, tt.schema)
			report, err := costest.Estimate(root, kube.NewRuleEnvSet(tt.minor()))
			if err != nil {
				t.Fatal(err)
			}
			s, err := kube.Structural(root)
			if err != nil {
				t.Fatal(err)
			}
			used := runtimeCost(t, s, largest(s).(map[string]interface{}))
			if c := report.Costs[0]; used > c.Total+tt.runtimeExcess {
				t.Errorf("runtime cost %d exceeds the estimate %d plus the known excess %d", used, c.Total, tt.runtimeExcess)
			} else if tt.runtimeExcess > 0 && used != c.Total+tt.runtimeExcess {
				t.Errorf("runtime cost %d, want exactly the estimate %d plus the known excess %d", used, c.Total, tt.runtimeExcess)
			}
		})
	}
}

// TestRuntimeCancellation shows why bounds aim at the runtime per-call
// limit and not only at the static limits: this rule is estimated at about
// 1M, well under the 10M the apiserver checks when the CRD is applied, yet
// an unchanged object at the schema's bounds makes the runtime cancel it
// and reject the update.
func TestRuntimeCancellation(t *testing.T) {
	root := schemaFrom(t, propertySchema("type: array\nmaxItems: 1000\nx-kubernetes-list-type: set\nitems: {type: integer}\n"+rule("oldSelf.all(x, x in self)")))
	report, err := costest.Estimate(root, kube.NewRuleEnvSet(31))
	if err != nil {
		t.Fatal(err)
	}
	if c := report.Costs[0]; c.Total != 1005002 || report.Rejected() {
		t.Fatalf("estimate %d, rejected %v; want 1005002, accepted", c.Total, report.Rejected())
	}
	s, err := kube.Structural(root)
	if err != nil {
		t.Fatal(err)
	}
	obj := largest(s).(map[string]interface{})
	v := cel.NewValidator(s, true, celconfig.PerCallLimit)
	errs, _ := v.Validate(context.Background(), nil, s, obj, obj, celconfig.RuntimeCELCostBudget)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "call cost exceeds limit") {
		t.Errorf("Validate on an unchanged object = %v, want the rule cancelled for its call cost", errs)
	}
}

// runtimeCost runs every rule of s on an update from obj to a copy of
// obj and returns the cost charged to the per-object budget.
func runtimeCost(t *testing.T, s *schema.Structural, obj map[string]interface{}) uint64 {
	t.Helper()
	old, err := kube.RoundTrip(obj)
	if err != nil {
		t.Fatal(err)
	}
	// As the apiserver validates an update: rules that do not read
	// oldSelf (those of unions) are evaluated, and charged, on the
	// unchanged object, which may well violate them, every optional field
	// being set; ratcheting drops their errors, and transition rules,
	// never ratcheted, must pass.
	v := cel.NewValidator(s, true, celconfig.PerCallLimit)
	correlated := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: s})
	errs, remaining := v.Validate(context.Background(), nil, s, obj, old, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(correlated))
	if len(errs) > 0 {
		t.Fatalf("rules fail on an unchanged object: %v", errs)
	}
	return uint64(celconfig.RuntimeCELCostBudget - remaining)
}

func translatedSchema(t *testing.T, file string, opts translate.Options) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	res, err := translate.Translate(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	out, _ := json.Marshal(res.Translated)
	if err := json.Unmarshal(out, crd); err != nil {
		t.Fatal(err)
	}
	return crd.Spec.Versions[0].Schema.OpenAPIV3Schema
}

// largest builds the largest value s allows. Items of sets and list maps
// are made distinct through their keys' or their own values.
func largest(s *schema.Structural) interface{} {
	return largestN(s, 0)
}

func largestN(s *schema.Structural, n int) interface{} {
	switch s.Type {
	case "object":
		m := map[string]interface{}{}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := s.Properties[name]
			m[name] = largestN(&p, n)
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil {
			for i := 0; i < int(bound(s.ValueValidation, "maxProperties")); i++ {
				m[fmt.Sprintf("key-%d", i)] = largestN(ap.Structural, i)
			}
		}
		return m
	case "array":
		var l []interface{}
		for i := 0; i < int(bound(s.ValueValidation, "maxItems")); i++ {
			l = append(l, largestN(s.Items, i))
		}
		return l
	case "string":
		if s.ValueValidation != nil && len(s.ValueValidation.Enum) > 0 {
			return s.ValueValidation.Enum[n%len(s.ValueValidation.Enum)].Object
		}
		prefix := fmt.Sprintf("%d-", n)
		length := int(bound(s.ValueValidation, "maxLength"))
		return prefix + strings.Repeat("x", max(0, length-len(prefix)))
	case "integer":
		return int64(n)
	case "number":
		return float64(n) + 0.5
	case "boolean":
		return n%2 == 0
	}
	return nil
}

// bound reads a bound, with a modest stand-in for unbounded ones.
func bound(v *schema.ValueValidation, keyword string) int64 {
	if v != nil {
		var p *int64
		switch keyword {
		case "maxProperties":
			p = v.MaxProperties
		case "maxItems":
			p = v.MaxItems
		case "maxLength":
			p = v.MaxLength
		}
		if p != nil {
			return *p
		}
	}
	if keyword == "maxLength" {
		return unboundedStringLength
	}
	return 8
}
