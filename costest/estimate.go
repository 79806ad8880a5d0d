package costest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/mut2cel/mut2cel/crd"
)

// Expression kinds of a Cost.
const (
	KindRule              = "rule"
	KindMessageExpression = "messageExpression"
)

// Cost is the estimated cost of one rule or messageExpression.
type Cost struct {
	// Node is the schema node carrying the rule, as steps below
	// openAPIV3Schema: "properties", a property name, "items",
	// "additionalProperties".
	Node []string
	// Index is the rule's position in the node's x-kubernetes-validations.
	Index int
	// Kind is KindRule or KindMessageExpression.
	Kind string
	// Expression is the CEL text.
	Expression string
	// PerCall is the estimated worst-case cost of one evaluation, the figure
	// the runtime per-call limit applies to.
	PerCall uint64
	// Cardinality is the worst-case number of evaluations per object: the
	// product of the maxItems and maxProperties of the enclosing lists and
	// maps, or, under an unbounded one, the estimator's own figure.
	// messageExpressions have cardinality 1: the apiserver does not multiply
	// their cost.
	Cardinality uint64
	// Total is the figure the apiserver compares with the static limits
	// and adds to the version total: PerCall times Cardinality.
	Total uint64
	// Error is the compile error, when the expression does not compile.
	Error string
}

// Path renders the expression's location the way the apiserver prints it,
// e.g. openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule,
// or, for a policy's validation, spec.validations[0].expression.
func (c Cost) Path() string {
	if c.Kind == KindValidation {
		return PolicyPath(c.Index)
	}
	return NodePath(c.Node).Child("x-kubernetes-validations").Index(c.Index).Child(c.Kind).String()
}

// NodePath renders schema steps below openAPIV3Schema as a field path.
func NodePath(node []string) *field.Path {
	p := crd.RootField()
	for i := 0; i < len(node); i++ {
		if node[i] == "properties" && i+1 < len(node) {
			p = p.Child("properties").Key(node[i+1])
			i++
			continue
		}
		p = p.Child(node[i])
	}
	return p
}

// Report is the cost of every expression of one CRD version.
type Report struct {
	// Costs are in schema order: a node's rules before its children's,
	// additionalProperties before properties, properties sorted by name.
	Costs []Cost
	// Total is the sum the apiserver compares with the per-version limit.
	Total uint64
}

// Estimate computes the cost of every x-kubernetes-validations expression of
// a version schema as the apiserver does when the CRD is created, compiling
// in env (the environment for new rules of the target apiserver). A schema
// the apiserver cannot convert gives an error.
func Estimate(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet) (*Report, error) {
	return estimateAt(root, env, nil)
}

// estimateAt is Estimate restricted to the rules of the nodes in hosts
// (keyed by nodeKey), or of every node when hosts is nil. Only the paths
// down to those nodes are walked, which is what makes the bound search
// fast on large schemas. The report's Total is the sum of these rules only.
func estimateAt(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, hosts map[string]bool) (*Report, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(root, internal, nil); err != nil {
		return nil, fmt.Errorf("converting the schema: %w", err)
	}
	e := &estimator{env: env, report: &Report{}}
	if hosts != nil {
		e.hosts, e.onPath = hosts, map[string]bool{"": true}
		for k := range hosts {
			for i := 0; i <= len(k); i++ {
				if i == len(k) || k[i] == 0 {
					e.onPath[k[:i]] = true
				}
			}
		}
	}
	if err := e.walk(internal, nil, validation.RootCELContext(internal)); err != nil {
		return nil, err
	}
	return e.report, nil
}

type estimator struct {
	env    *environment.EnvSet
	report *Report
	// hosts, when set, are the only nodes whose rules are compiled, and
	// onPath the nodes at or above them, the only ones walked.
	hosts, onPath map[string]bool
}

// nodeKey identifies a node by its steps.
func nodeKey(node []string) string { return strings.Join(node, "\x00") }

// walk visits the nodes the apiserver compiles rules on, in the same
// parent-child relation: additionalProperties, properties and items. Rules
// under allOf, anyOf, oneOf and not get no CEL context there, and none here.
func (e *estimator) walk(s *apiextensions.JSONSchemaProps, node []string, ctx *validation.CELSchemaContext) error {
	if e.onPath != nil && !e.onPath[nodeKey(node)] {
		return nil
	}
	if len(s.XValidations) > 0 && (e.hosts == nil || e.hosts[nodeKey(node)]) {
		if err := e.compile(s, node, ctx); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		child := s.AdditionalProperties.Schema
		if err := e.walk(child, appendStep(node, "additionalProperties"), ctx.ChildAdditionalPropertiesContext(child)); err != nil {
			return err
		}
	}
	names := slices.Sorted(maps.Keys(s.Properties))
	for _, name := range names {
		child := s.Properties[name]
		if err := e.walk(&child, appendStep(node, "properties", name), ctx.ChildPropertyContext(&child, name)); err != nil {
			return err
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		if err := e.walk(s.Items.Schema, appendStep(node, "items"), ctx.ChildItemsContext(s.Items.Schema)); err != nil {
			return err
		}
	}
	return nil
}

func (e *estimator) compile(s *apiextensions.JSONSchemaProps, node []string, ctx *validation.CELSchemaContext) error {
	info, err := ctx.TypeInfo()
	if err != nil {
		return fmt.Errorf("%s: type information for the rules: %w", NodePath(node), err)
	}
	if info == nil {
		return fmt.Errorf("%s: no type information for the rules", NodePath(node))
	}
	results, err := cel.Compile(info.Schema, info.DeclType, celconfig.PerCallLimit, e.env, cel.NewExpressionsEnvLoader())
	if err != nil {
		return fmt.Errorf("%s: %w", NodePath(node), err)
	}
	for i, r := range results {
		c := Cost{Node: node, Index: i, Kind: KindRule, Expression: s.XValidations[i].Rule, PerCall: r.MaxCost}
		c.Cardinality = r.MaxCardinality
		if ctx.MaxCardinality != nil {
			c.Cardinality = *ctx.MaxCardinality
		}
		c.Total = product(c.PerCall, c.Cardinality)
		if r.Error != nil {
			c.Error = r.Error.Detail
		}
		e.add(c)
		if r.MessageExpression != nil && r.MessageExpressionError == nil {
			e.add(Cost{Node: node, Index: i, Kind: KindMessageExpression, Expression: s.XValidations[i].MessageExpression,
				PerCall: r.MessageExpressionMaxCost, Cardinality: 1, Total: r.MessageExpressionMaxCost})
		}
	}
	return nil
}

func (e *estimator) add(c Cost) {
	e.report.Costs = append(e.report.Costs, c)
	e.report.Total = sum(e.report.Total, c.Total)
}

// product is the apiserver's cost times cardinality, saturating at the
// largest uint64 instead of overflowing.
func product(cost, cardinality uint64) uint64 {
	if cost != 0 && math.MaxUint64/cost < cardinality {
		return math.MaxUint64
	}
	return cost * cardinality
}

// sum adds costs, saturating like the apiserver's total.
func sum(a, b uint64) uint64 {
	if math.MaxUint64-a < b {
		return math.MaxUint64
	}
	return a + b
}

func appendStep(node []string, steps ...string) []string {
	out := make([]string, 0, len(node)+len(steps))
	return append(append(out, node...), steps...)
}
