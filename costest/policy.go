package costest

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/mut2cel/mut2cel/internal/kube"
)

// KindValidation is the Kind of the Cost of a validation of a
// ValidatingAdmissionPolicy (EstimatePolicy).
const KindValidation = "validation"

// PolicyPath renders the location of a policy's validation:
// spec.validations[2].expression.
func PolicyPath(index int) string {
	return fmt.Sprintf("spec.validations[%d].expression", index)
}

// EstimatePolicy estimates the validations of a ValidatingAdmissionPolicy
// that matches the resource whose version schema is root, as the
// apiserver would if it estimated policies (it does not: a policy has no
// static cost limit, only the runtime ones). Each expression is compiled
// in the environment the apiserver runs policies in (policyEnv), and
// estimated with the apiserver's CostEstimator, whose sizes come from the
// resource's schema (policySizes), through the policy's variables too.
// The report has one Cost per expression, in order, with Kind
// KindValidation, Index its position and Cardinality 1: a validation
// runs once per request. Its PerCall counts the variables it reads, each
// once, as the first expression to read a variable pays for it. Total is
// the sum of the validations' own costs and of every variable's, each
// once, which the runtime budget of a binding applies to.
func EstimatePolicy(root *apiextensionsv1.JSONSchemaProps, p Policy) (*Report, error) {
	if root == nil {
		return nil, fmt.Errorf("no schema: the sizes of the resource's values are unknown")
	}
	s, err := kube.Structural(root)
	if err != nil {
		return nil, fmt.Errorf("the schema is not structural: %w", err)
	}
	object := model.SchemaDeclType(s, true)
	if object == nil {
		return nil, fmt.Errorf("no CEL type for the schema")
	}
	env, err := policyEnv()
	if err != nil {
		return nil, err
	}
	sizes := &policySizes{object: object, schema: s}
	estimator := policyCosts{CostEstimator: &library.CostEstimator{SizeEstimator: sizes}, sizes: sizes}
	vars := compileVariables(env, p.Variables, estimator, sizes)
	report := &Report{}
	for _, v := range p.Variables {
		report.Total = sum(report.Total, vars.cost[v.Name])
	}
	for i, expr := range p.Expressions {
		c := Cost{Index: i, Kind: KindValidation, Expression: expr, Cardinality: 1}
		ast, issues := env.Compile(expr)
		if issues != nil && issues.Err() != nil {
			c.Error = issues.Err().Error()
		} else if est, err := env.EstimateCost(ast, estimator); err != nil {
			c.Error = "cost estimation failed: " + err.Error()
		} else if charged, err := vars.charged(variablesRead(ast.NativeRep().Expr()), map[string]bool{}); err != "" {
			c.Error = err
		} else {
			report.Total = sum(report.Total, est.Max)
			c.PerCall = sum(est.Max, charged)
			c.Total = c.PerCall
		}
		report.Costs = append(report.Costs, c)
	}
	return report, nil
}

// policyEnv is the environment the apiserver compiles and runs the
// validations of a policy in (createEnvForOpts of
// k8s.io/apiserver/pkg/admission/plugin/cel/compile.go, unexported, for a
// policy without paramKind): the base environment of the default
// compatibility version, namespaceObject and request of the apiserver's
// own types, authorizer, and object and oldObject of type dyn. The
// apiserver's type checker declares object and oldObject of the
// resource's type instead, but only to write warnings into the policy's
// status, and the expressions of backend/policy, which test fields with
// 'name' in object as the plain JSON values they are, do not compile
// there; the schema enters the estimate through the sizes instead.
var policyEnv = sync.OnceValues(func() (*cel.Env, error) {
	request, namespace := plugincel.BuildRequestType(), plugincel.BuildNamespaceType()
	set, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			cel.Variable(plugincel.ObjectVarName, cel.DynType),
			cel.Variable(plugincel.OldObjectVarName, cel.DynType),
			cel.Variable(plugincel.NamespaceVarName, namespace.CelType()),
			cel.Variable(plugincel.RequestVarName, request.CelType()),
			cel.Variable(plugincel.AuthorizerVarName, library.AuthorizerType),
			cel.Variable(plugincel.RequestResourceAuthorizerVarName, library.ResourceCheckType),
			cel.Variable("variables", cel.MapType(cel.StringType, cel.DynType)),
		},
		DeclTypes: []*apiservercel.DeclType{namespace, request},
	}, environment.StrictCostOpt)
	if err != nil {
		return nil, err
	}
	return set.Env(environment.NewExpressions)
})

// policySizes gives the estimator the largest size of a value of the
// resource: the MaxElements of the DeclType at the AST node's path, from
// object or oldObject. It is the apiextensions-apiserver's sizeEstimator
// (schema/cel/compilation.go, unexported), which walks the same way from
// self; here the walk starts at the policy's variables. Other roots
// (request, namespaceObject) get no estimate, so the estimator's own
// worst case. Because object and oldObject are dyn, the estimator sees
// what a typed environment would forbid, and three cases differ from the
// apiserver's sizeEstimator, each to give a bound the runtime respects:
//   - it names the variable of a one-variable comprehension over a dyn
//     value @keys, list or not: over a list, that is @items;
//   - a comprehension may range over an object of the schema (the union
//     walks do), whose DeclType has no MaxElements: a pruned object holds
//     at most its properties, so that is its size; an object that keeps
//     unknown fields, and metadata, which holds more than the DeclType
//     shows, get no estimate;
//   - comparing type values (type(x) == null_type) costs 1 at run time,
//     types having no size; the estimator, finding no size, would assume
//     the largest (policyCosts).
type policySizes struct {
	object *apiservercel.DeclType
	schema *structuralschema.Structural
	vars   *policyVars
}

func (p *policySizes) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) >= 2 && path[0] == "variables" && p.vars != nil && p.vars.paths[path[1]] != nil {
		path = append(append([]string{}, p.vars.paths[path[1]]...), path[2:]...)
	}
	if len(path) == 0 || (path[0] != plugincel.ObjectVarName && path[0] != plugincel.OldObjectVarName) {
		return nil
	}
	node, s := p.object, p.schema
	for _, step := range path[1:] {
		switch {
		case step == "@items" || step == "@values" || step == "@keys" && node.IsList():
			node = node.ElemType
			s = elemSchema(s)
		case step == "@keys":
			node, s = node.KeyType, nil
		case step == "metadata" && s != nil && (s == p.schema || s.XEmbeddedResource):
			return nil
		default:
			f, ok := node.Fields[step]
			if !ok || s == nil {
				return nil
			}
			prop, ok := s.Properties[step]
			if !ok {
				return nil // apiVersion and kind, which WithTypeAndObjectMeta adds
			}
			node, s = f.Type, &prop
		}
		if node == nil {
			return nil
		}
	}
	size := node.MaxElements
	if node.IsObject() {
		if s == nil || s.XPreserveUnknownFields {
			return nil
		}
		size = int64(len(s.Properties))
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(size)}
}

// elemSchema is the schema of the items or values of s.
func elemSchema(s *structuralschema.Structural) *structuralschema.Structural {
	switch {
	case s == nil:
		return nil
	case s.Items != nil:
		return s.Items
	case s.AdditionalProperties != nil:
		return s.AdditionalProperties.Structural
	}
	return nil
}

func (p *policySizes) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// policyCosts is the apiserver's CostEstimator, but for comparisons of
// type values (see policySizes), and for a key looked up in a variable
// that holds a map, which costs what the runtime charges for a map (1),
// not the scan of a list the estimator would assume of a dyn value.
type policyCosts struct {
	*library.CostEstimator
	sizes *policySizes
}

func (p policyCosts) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if (function == "_==_" || function == "_!=_") && len(args) == 2 &&
		(args[0].Type().Kind() == types.TypeKind || args[1].Type().Kind() == types.TypeKind) {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	}
	if function == "@in" && len(args) == 2 && p.sizes != nil && p.sizes.vars != nil {
		if path := args[1].Path(); len(path) == 2 && path[0] == "variables" && p.sizes.vars.maps[path[1]] {
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
		}
	}
	return p.CostEstimator.EstimateCallCost(function, overloadID, target, args)
}
