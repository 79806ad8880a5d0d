package audit

import (
	"errors"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/mut2cel/mut2cel/costest"
	"github.com/mut2cel/mut2cel/crd"
	"github.com/mut2cel/mut2cel/decl"
	"github.com/mut2cel/mut2cel/internal/leaf/kube"
	"github.com/mut2cel/mut2cel/translate"
)

// Report is the whole audit, as `mut2cel cost --format json` prints it.
type Report struct {
	KubeVersion string `json:"kubeVersion"`
	CRDs        []CRD  `json:"crds"`
}

// CRD is the audit of one CRD document.
type CRD struct {
	Name     string    `json:"name"`
	File     string    `json:"file"`
	Document int       `json:"document"` // from 1
	Versions []Version `json:"versions"`
	// TranslateError is set when the CRD has declarations but translate
	// failed because its own rules already cross a static limit; the
	// versions then hold the CRD's own rules only.
	TranslateError string `json:"translateError,omitempty"`
}

func (c *CRD) rejected() bool {
	for _, v := range c.Versions {
		for _, x := range v.Exceeds {
			if x.Static {
				return true
			}
		}
	}
	return false
}

// Version is the audit of one version's schema.
type Version struct {
	Name string `json:"name"`
	// TotalCost is the sum the apiserver compares with the per-version limit.
	TotalCost   uint64       `json:"totalCost"`
	Rules       []Rule       `json:"rules"`
	BoundsAdded []Bound      `json:"boundsAdded"`
	Exceeds     []Exceeded   `json:"exceeds"`
	Suggestions []Suggestion `json:"suggestions"`
}

// Rule is one rule or messageExpression, most expensive first.
type Rule struct {
	Path string `json:"path"`
	// Node is the schema node holding the rule, in the notation of the
	// declarations annotation (.spec.ports[*]); Index its place in the
	// node's x-kubernetes-validations, from 0.
	Node  string `json:"node"`
	Index int    `json:"index"`
	// Kind is "rule", or "messageExpression" for the message of the rule
	// at the same node and index.
	Kind        string `json:"kind"`
	Rule        string `json:"rule"`
	Cost        uint64 `json:"cost"`
	PerCall     uint64 `json:"perCall"`
	Cardinality uint64 `json:"cardinality"`
	Generated   bool   `json:"generated"`
	Error       string `json:"error,omitempty"`
}

// Bound is a maxLength, maxItems or maxProperties on a schema node.
type Bound struct {
	Path    string `json:"path"`
	Node    string `json:"node"` // as Rule.Node
	Keyword string `json:"keyword"`
	Value   int64  `json:"value"`
}

// Exceeded is a limit crossed by a rule or by the version.
type Exceeded struct {
	Limit      string `json:"limit"`
	Static     bool   `json:"static"`
	Path       string `json:"path"`
	Cost       uint64 `json:"cost"`
	LimitValue uint64 `json:"limitValue"`
}

// Suggestion is what would bring one rule over a limit under all limits:
// the bounds to add, or, when no bound can, why.
type Suggestion struct {
	Path   string  `json:"path"`
	Bounds []Bound `json:"bounds,omitempty"`
	Detail string  `json:"detail,omitempty"`
}

// Rejected reports whether the apiserver would reject any audited version
// for its estimated cost.
func (r *Report) Rejected() bool {
	for i := range r.CRDs {
		if r.CRDs[i].rejected() {
			return true
		}
	}
	return false
}

// Document audits one decoded CRD document. A CRD with declarations is
// audited as translate would write it. When translate fails, the CRD's own
// rules are audited without the generated ones: if they cross a static
// limit, that is the finding (translate cannot succeed before they are
// fixed) and the report says translate failed; otherwise translate's error
// is returned as it is.
func Document(file string, index int, doc map[string]interface{}, opts translate.Options) (*CRD, error) {
	if opts.KubeVersion.IsZero() {
		opts.KubeVersion = translate.DefaultKubeVersion
	}
	res, err := translate.Translate(doc, opts)
	if err != nil {
		own, ownErr := audit(file, index, doc, &translate.Result{}, opts)
		if ownErr != nil || !own.rejected() {
			return nil, err
		}
		own.TranslateError = err.Error()
		return own, nil
	}
	return audit(file, index, res.Translated, res, opts)
}

// audit reports the costs of doc, marking res's generated rules and bounds.
func audit(file string, index int, doc map[string]interface{}, res *translate.Result, opts translate.Options) (*CRD, error) {
	typed, err := readCRD(doc).Typed()
	if err != nil {
		return nil, fmt.Errorf("decoding the CRD: %w", err)
	}
	out := &CRD{Name: typed.Name, File: file, Document: index + 1}
	env := kube.NewRuleEnvSet(opts.KubeVersion.Minor)
	generated := generatedRules(res.Generated)
	for i, v := range typed.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		av, err := version(v.Schema.OpenAPIV3Schema, env, func(c costest.Cost) bool {
			return c.Kind == costest.KindRule && generated[ruleKey(i, c.Node, c.Expression)]
		})
		if err != nil {
			return nil, fmt.Errorf("version %s: %w", v.Name, err)
		}
		av.Name = v.Name
		av.BoundsAdded = boundsAdded(res.Bounds, i)
		out.Versions = append(out.Versions, *av)
	}
	return out, nil
}

func version(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, generated func(costest.Cost) bool) (*Version, error) {
	r, err := costest.Estimate(root, env)
	if err != nil {
		return nil, err
	}
	v := &Version{TotalCost: r.Total, Rules: []Rule{}, BoundsAdded: []Bound{}, Exceeds: []Exceeded{}, Suggestions: []Suggestion{}}
	for _, c := range r.Costs {
		v.Rules = append(v.Rules, Rule{Path: c.Path(), Node: nodeOf(c.Node), Index: c.Index, Kind: c.Kind, Rule: c.Expression, Cost: c.Total, PerCall: c.PerCall,
			Cardinality: c.Cardinality, Generated: generated(c), Error: c.Error})
	}
	sort.SliceStable(v.Rules, func(i, j int) bool { return v.Rules[i].Cost > v.Rules[j].Cost })
	over := map[string]bool{}
	for _, x := range r.Exceeded() {
		v.Exceeds = append(v.Exceeds, Exceeded{Limit: x.Limit.Name, Static: x.Limit.Static, Path: x.Path, Cost: x.Cost, LimitValue: x.Limit.Value})
		over[x.Path] = true
	}
	for _, c := range r.Costs {
		if over[c.Path()] {
			s, err := suggest(root, env, c.Path(), func(e costest.Cost) bool { return e.Path() == c.Path() })
			if err != nil {
				return nil, err
			}
			v.Suggestions = append(v.Suggestions, s)
		}
	}
	if r.Total > costest.PerVersionLimit.Value && len(v.Suggestions) == 0 {
		// No expression is over a limit of its own, which would have a
		// suggestion saying what the total needs, yet the total is: the
		// bounds of all of them together, or why there are none.
		s, err := suggest(root, env, costest.VersionPath, func(costest.Cost) bool { return true })
		if err != nil {
			return nil, err
		}
		v.Suggestions = append(v.Suggestions, s)
	}
	return v, nil
}

// suggest finds the bounds that bring the selected expressions, at path
// (one expression, or the version), under the static limits
// (docs/cost.md: the runtime limits are judged on realistic objects, not
// bounded for), or says up to which sizes they stay within the runtime
// limits.
func suggest(root *apiextensionsv1.JSONSchemaProps, env *environment.EnvSet, path string, selected func(costest.Cost) bool) (Suggestion, error) {
	s := Suggestion{Path: path}
	bounds, err := costest.Bounds(root, env, costest.BoundOptions{Selected: selected})
	var unfit *costest.UnfitError
	switch {
	case errors.As(err, &unfit) && path == costest.VersionPath:
		s.Detail = "no bound at or above the floors (maxLength 253, maxItems and maxProperties 64) brings its rules under the per-version limit together: " + unfit.Error() + "; simplify or remove rules"
		return s, nil
	case errors.As(err, &unfit):
		s.Detail = "no bound at or above the floors (maxLength 253, maxItems and maxProperties 64) brings it under the static limits: " + unfit.Error() + "; simplify the rule"
		return s, nil
	case err != nil:
		return s, err
	}
	for _, b := range bounds {
		s.Bounds = append(s.Bounds, Bound{Path: costest.NodePath(b.Node).String(), Node: nodeOf(b.Node), Keyword: b.Keyword, Value: b.Value})
	}
	if len(bounds) > 0 {
		return s, nil
	}
	reach, err := costest.RuntimeReach(root, env, selected, nil)
	if err != nil {
		return s, err
	}
	s.Detail = "only its worst case is over the runtime limits, and it fits the per-expression limit without a bound; "
	if reach.Within {
		s.Detail += "it stays within them while the " + reach.Sizes()
	} else {
		s.Detail += "its estimate does not shrink with the object's size"
	}
	return s, nil
}

// generatedRules indexes the generated rules by version, node and text.
func generatedRules(rules []translate.GeneratedRule) map[string]bool {
	out := map[string]bool{}
	for _, g := range rules {
		i, rel, ok := crd.Split(g.Path)
		if !ok {
			continue
		}
		out[ruleKey(i, schemaSteps(rel), g.Rule.Rule)] = true
	}
	return out
}

func ruleKey(version int, node []string, rule string) string {
	return fmt.Sprintf("%d\x00%q\x00%s", version, node, rule)
}

// boundsAdded lists translate's bounds on version i, with paths below
// openAPIV3Schema like the rules'.
func boundsAdded(bounds []translate.Bound, i int) []Bound {
	out := []Bound{}
	for _, b := range bounds {
		if v, rel, ok := crd.Split(b.Path); ok && v == i {
			out = append(out, Bound{Path: costest.NodePath(schemaSteps(rel)).String(), Node: b.Node, Keyword: b.Keyword, Value: b.Value})
		}
	}
	return out
}

// schemaSteps are the steps of a schema-relative document path, as
// costest names schema nodes.
func schemaSteps(rel []interface{}) []string {
	steps := make([]string, 0, len(rel))
	for _, step := range rel {
		steps = append(steps, fmt.Sprint(step))
	}
	return steps
}

// nodeOf renders schema steps below openAPIV3Schema as a decl.Path.
func nodeOf(steps []string) string {
	rel := make([]interface{}, len(steps))
	for i, s := range steps {
		rel[i] = s
	}
	return decl.PathOf(rel).String()
}

// readCRD reads the model of a CRD document; a missing one has nothing.
func readCRD(doc map[string]interface{}) *crd.CRD {
	c, err := crd.Read(doc)
	if err != nil {
		return &crd.CRD{}
	}
	return c
}
