package verifyrun

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/verify"
	"github.com/mut2cel/mut2cel/verify/reference"
)

// The document of verify -o json and -o yaml, described field by field in
// docs/verify.md. Fields may be added; none is renamed or removed.

type Document struct {
	Pairs           int         `json:"pairs"`
	Disagreements   int         `json:"disagreements"`
	Unexercised     int         `json:"unexercised"`
	Judged          int         `json:"judged"`
	Untested        int         `json:"untested"`
	SetAside        int         `json:"setAside"`
	TooManySetAside int         `json:"tooManySetAside"`
	CRDs            []CRDResult `json:"crds"`
}

type CRDResult struct {
	File     string          `json:"file"`
	Line     int             `json:"line"`
	CRD      string          `json:"crd"`
	Versions []VersionResult `json:"versions"`
}

type VersionResult struct {
	Version           string              `json:"version"`
	Pairs             int                 `json:"pairs"`
	Disagreements     int                 `json:"disagreements"`
	First             int                 `json:"first"`
	IntAsFloat        int                 `json:"intAsFloat"`
	Invalid           int                 `json:"invalid"`
	Causes            []CauseResult       `json:"causes"`
	Declarations      []DeclarationResult `json:"declarations"`
	Unexercised       []DeclarationKey    `json:"unexercised"`
	Judged            int                 `json:"judged"`
	Constraints       []ConstraintResult  `json:"constraints"`
	Untested          []ConstraintKey     `json:"untested"`
	SetAside          []SetAsideResult    `json:"setAside"`
	Groups            []GroupResult       `json:"groups"`
	IntAsFloatExample *ExampleResult      `json:"intAsFloatExample,omitempty"`
}

type ConstraintKey struct {
	DeclarationKey
	Constraint string `json:"constraint"`
	Via        string `json:"via,omitempty"`
}

type ConstraintResult struct {
	ConstraintKey
	Violating   int  `json:"violating"`
	Refused     int  `json:"refused"`
	Unreachable bool `json:"unreachable"`
}

type SetAsideResult struct {
	Reason  string        `json:"reason"`
	Message string        `json:"message"`
	Pairs   int           `json:"pairs"`
	Example ExampleResult `json:"example"`
}

type ExampleResult struct {
	Pair int         `json:"pair"`
	Old  ReplayValue `json:"old"`
	New  ReplayValue `json:"new"`
}

type GroupResult struct {
	Kind           string                `json:"kind"`
	Key            string                `json:"key"`
	Constraint     *ConstraintKey        `json:"constraint,omitempty"`
	Rule           *RuleResult           `json:"rule,omitempty"`
	Disagreements  int                   `json:"disagreements"`
	First          int                   `json:"first"`
	Counterexample *CounterexampleResult `json:"counterexample,omitempty"`
}

type CauseResult struct {
	Kind           string                `json:"kind"`
	Key            string                `json:"key"`
	Rules          []RuleResult          `json:"rules"`
	Violated       []ViolatedResult      `json:"violated"`
	Disagreements  int                   `json:"disagreements"`
	First          int                   `json:"first"`
	Counterexample *CounterexampleResult `json:"counterexample,omitempty"`
}

type RuleResult struct {
	Path string `json:"path"`
	Rule string `json:"rule"`
}

type DeclarationKey struct {
	Path      string `json:"path"`
	Extension string `json:"extension"`
	Value     string `json:"value"`
}

type ViolatedResult struct {
	DeclarationKey
	Kind string `json:"kind"`
}

type DeclarationResult struct {
	DeclarationKey
	Pairs         int `json:"pairs"`
	Violating     int `json:"violating"`
	Disagreements int `json:"disagreements"`
	Violated      int `json:"violated"`
}

type CounterexampleResult struct {
	Pair       int               `json:"pair"`
	Reference  string            `json:"reference"`
	Violations []ViolationResult `json:"violations"`
	Companions []string          `json:"companions,omitempty"`
	CEL        string            `json:"cel"`
	Errors     []string          `json:"errors"`
	Rules      []RuleResult      `json:"rules"`
	Old        ReplayValue       `json:"old"`
	New        ReplayValue       `json:"new"`
}

type ViolationResult struct {
	Path        string `json:"path"`
	Declaration string `json:"declaration"`
	Kind        string `json:"kind"`
	Detail      string `json:"detail"`
}

// NewDocument returns the document of a run before any CRD is verified.
func NewDocument() *Document { return &Document{CRDs: []CRDResult{}} }

// Add appends the report of one CRD and counts its pairs.
func (d *Document) Add(job Job, rep *verify.Report) {
	crd := CRDResult{File: job.Declared.At.File, Line: job.Declared.At.Line, CRD: rep.CRD, Versions: []VersionResult{}}
	for _, v := range rep.Versions {
		d.Pairs += v.Pairs
		d.Disagreements += v.Disagreements
		d.Unexercised += len(v.Unexercised())
		d.Judged += v.Judged()
		d.Untested += len(v.Untested())
		d.SetAside += v.Invalid
		if v.TooManySetAside() {
			d.TooManySetAside++
		}
		crd.Versions = append(crd.Versions, versionOf(v))
	}
	d.CRDs = append(d.CRDs, crd)
}

func versionOf(v *verify.VersionReport) VersionResult {
	out := VersionResult{
		Version: v.Version, Pairs: v.Pairs, Disagreements: v.Disagreements, First: v.First,
		IntAsFloat: v.IntAsFloat, Invalid: v.Invalid, Causes: []CauseResult{}, Declarations: []DeclarationResult{},
		Unexercised: []DeclarationKey{}, Judged: v.Judged(), Constraints: []ConstraintResult{}, Untested: []ConstraintKey{},
		SetAside: []SetAsideResult{}, Groups: []GroupResult{},
	}
	for _, c := range v.Constraints {
		out.Constraints = append(out.Constraints, ConstraintResult{constraintKeyOf(c.Constraint), c.Violating, c.Refused, c.Unreachable()})
	}
	for _, c := range v.Untested() {
		out.Untested = append(out.Untested, constraintKeyOf(c))
	}
	for _, sa := range v.SetAside {
		out.SetAside = append(out.SetAside, SetAsideResult{sa.Reason, sa.Message, sa.Pairs, exampleOf(sa.Example)})
	}
	for _, g := range v.Groups {
		out.Groups = append(out.Groups, groupOf(g))
	}
	if e := v.IntAsFloatExample; e != nil {
		ex := exampleOf(*e)
		out.IntAsFloatExample = &ex
	}
	for _, c := range v.Causes {
		out.Causes = append(out.Causes, causeOf(c))
	}
	for _, d := range v.Declarations {
		out.Declarations = append(out.Declarations, DeclarationResult{keyOf(d.Declaration), d.Pairs, d.Violating, d.Disagreements, d.Violated})
	}
	for _, d := range v.Unexercised() {
		out.Unexercised = append(out.Unexercised, keyOf(d))
	}
	return out
}

func causeOf(c *verify.CauseReport) CauseResult {
	out := CauseResult{
		Kind: c.Cause.Kind, Key: c.Cause.Key(), Rules: rulesOf(c.Cause.Rules), Violated: []ViolatedResult{},
		Disagreements: c.Disagreements, First: c.First,
	}
	for _, v := range c.Cause.Violated {
		out.Violated = append(out.Violated, ViolatedResult{keyOf(v.Declaration), v.Kind})
	}
	if ce := c.Counterexample; ce != nil {
		out.Counterexample = counterexampleOf(ce)
	}
	return out
}

func groupOf(g *verify.GroupReport) GroupResult {
	out := GroupResult{Kind: g.Kind, Key: g.Key(), Disagreements: g.Disagreements, First: g.First}
	if g.Constraint != nil {
		k := constraintKeyOf(*g.Constraint)
		out.Constraint = &k
	}
	if g.Rule != nil {
		out.Rule = &RuleResult{g.Rule.Path, g.Rule.Rule}
	}
	if ce := g.Counterexample; ce != nil {
		out.Counterexample = counterexampleOf(ce)
	}
	return out
}

func constraintKeyOf(c reference.Constraint) ConstraintKey {
	return ConstraintKey{keyOf(c.Declaration), c.Name, c.Via}
}

func exampleOf(e verify.Example) ExampleResult {
	return ExampleResult{e.Pair, ReplayValue{e.Old}, ReplayValue{e.New}}
}

func counterexampleOf(ce *verify.Counterexample) *CounterexampleResult {
	out := &CounterexampleResult{
		Pair: ce.Pair, Reference: ce.ReferenceVerdict(),
		Violations: []ViolationResult{}, Companions: ce.Companions,
		CEL: ce.CELVerdict(), Errors: append([]string{}, ce.Errors...), Rules: rulesOf(ce.Rules),
		Old: ReplayValue{ce.Old}, New: ReplayValue{ce.New},
	}
	for _, v := range ce.Reference {
		out.Violations = append(out.Violations, ViolationResult{v.Path, v.Declaration, v.Kind, v.Detail})
	}
	return out
}

func keyOf(d reference.Declaration) DeclarationKey {
	return DeclarationKey{d.Path, d.Extension, d.Value}
}

func rulesOf(rules []verify.InvolvedRule) []RuleResult {
	out := []RuleResult{}
	for _, r := range rules {
		out = append(out, RuleResult{r.Path, r.Rule})
	}
	return out
}

// ReplayValue is an object of a pair, written so that it can be sent
// again as it was: a float with an integral value keeps its ".0", which
// the apiserver's CEL does not take for an integer (docs/semantics.md 2.4).
type ReplayValue struct{ v interface{} }

func (r ReplayValue) MarshalJSON() ([]byte, error) {
	switch x := r.v.(type) {
	case map[string]interface{}:
		m := make(map[string]ReplayValue, len(x))
		for k, e := range x {
			m[k] = ReplayValue{e}
		}
		return marshalJSON(m)
	case []interface{}:
		l := make([]ReplayValue, len(x))
		for i, e := range x {
			l[i] = ReplayValue{e}
		}
		return marshalJSON(l)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if x == math.Trunc(x) && !strings.ContainsAny(s, "e.") {
			s += ".0"
		}
		return []byte(s), nil
	}
	return marshalJSON(r.v)
}

// marshalJSON is json.Marshal without HTML escaping: rules are full of &&
// and <.
func marshalJSON(v interface{}) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Write writes the document as indented JSON (format "json"), or as YAML
// with the same fields in the same order.
func (d *Document) Write(w io.Writer, format string) error {
	data, err := marshalJSON(d)
	if err != nil {
		return err
	}
	if format == "json" {
		var b bytes.Buffer
		if err := json.Indent(&b, data, "", "  "); err != nil {
			return err
		}
		b.WriteByte('\n')
		_, err := w.Write(b.Bytes())
		return err
	}
	// JSON is YAML: decoding it into nodes keeps the order of the fields
	// and the ".0" of floats; only the flow style and quotes go.
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return err
	}
	blockStyle(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

// blockStyle drops the flow style and quoting of nodes read from JSON,
// keeping flow style for empty collections, and gives each string the
// style yaml.v3 gives a Go string (stringStyle).
func blockStyle(n *yaml.Node) {
	n.Style = 0
	switch {
	case (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) == 0:
		n.Style = yaml.FlowStyle
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		n.Style = stringStyle(n.Value)
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// stringStyle is the style the encoder gives s as a Go string. A string
// node of style 0 is written plain unless YAML 1.2 reads it as another
// value, so "on", "y", "no" and "1:20" went out bare, and kubectl and
// sigs.k8s.io/yaml, which read YAML 1.1, took them for booleans and
// numbers: as keys of a counterexample, a property named on became true.
// For Go strings the encoder quotes those too.
func stringStyle(s string) yaml.Style {
	var n yaml.Node
	if err := n.Encode(s); err != nil {
		return yaml.DoubleQuotedStyle
	}
	return n.Style
}
