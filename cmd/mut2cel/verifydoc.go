package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mut2cel/mut2cel/verify"
)

// The document of verify -o json and -o yaml, described field by field in
// docs/verify.md. Fields may be added; none is renamed or removed.

type verifyDocument struct {
	Pairs         int         `json:"pairs"`
	Disagreements int         `json:"disagreements"`
	Unexercised   int         `json:"unexercised"`
	CRDs          []crdResult `json:"crds"`
}

type crdResult struct {
	File     string          `json:"file"`
	Line     int             `json:"line"`
	CRD      string          `json:"crd"`
	Versions []versionResult `json:"versions"`
}

type versionResult struct {
	Version       string              `json:"version"`
	Pairs         int                 `json:"pairs"`
	Disagreements int                 `json:"disagreements"`
	First         int                 `json:"first"`
	IntAsFloat    int                 `json:"intAsFloat"`
	Invalid       int                 `json:"invalid"`
	Causes        []causeResult       `json:"causes"`
	Declarations  []declarationResult `json:"declarations"`
	Unexercised   []declarationKey    `json:"unexercised"`
}

type causeResult struct {
	Kind           string                `json:"kind"`
	Key            string                `json:"key"`
	Rules          []ruleResult          `json:"rules"`
	Violated       []violatedResult      `json:"violated"`
	Disagreements  int                   `json:"disagreements"`
	First          int                   `json:"first"`
	Counterexample *counterexampleResult `json:"counterexample,omitempty"`
}

type ruleResult struct {
	Path string `json:"path"`
	Rule string `json:"rule"`
}

type declarationKey struct {
	Path      string `json:"path"`
	Extension string `json:"extension"`
	Value     string `json:"value"`
}

type violatedResult struct {
	declarationKey
	Kind string `json:"kind"`
}

type declarationResult struct {
	declarationKey
	Pairs         int `json:"pairs"`
	Disagreements int `json:"disagreements"`
	Violated      int `json:"violated"`
}

type counterexampleResult struct {
	Pair       int               `json:"pair"`
	Reference  string            `json:"reference"`
	Violations []violationResult `json:"violations"`
	Companions []string          `json:"companions,omitempty"`
	CEL        string            `json:"cel"`
	Errors     []string          `json:"errors"`
	Rules      []ruleResult      `json:"rules"`
	Old        replayValue       `json:"old"`
	New        replayValue       `json:"new"`
}

type violationResult struct {
	Path        string `json:"path"`
	Declaration string `json:"declaration"`
	Kind        string `json:"kind"`
	Detail      string `json:"detail"`
}

// add appends the report of one CRD and counts its pairs.
func (d *verifyDocument) add(job verifyJob, rep *verify.Report) {
	crd := crdResult{File: job.declared.At.File, Line: job.declared.At.Line, CRD: rep.CRD, Versions: []versionResult{}}
	for _, v := range rep.Versions {
		d.Pairs += v.Pairs
		d.Disagreements += v.Disagreements
		d.Unexercised += len(v.Unexercised())
		crd.Versions = append(crd.Versions, versionOf(v))
	}
	d.CRDs = append(d.CRDs, crd)
}

func versionOf(v *verify.VersionReport) versionResult {
	out := versionResult{
		Version: v.Version, Pairs: v.Pairs, Disagreements: v.Disagreements, First: v.First,
		IntAsFloat: v.IntAsFloat, Invalid: v.Invalid, Causes: []causeResult{}, Declarations: []declarationResult{},
		Unexercised: []declarationKey{},
	}
	for _, c := range v.Causes {
		out.Causes = append(out.Causes, causeOf(c))
	}
	for _, d := range v.Declarations {
		out.Declarations = append(out.Declarations, declarationResult{keyOf(d.Declaration), d.Pairs, d.Disagreements, d.Violated})
	}
	for _, d := range v.Unexercised() {
		out.Unexercised = append(out.Unexercised, keyOf(d))
	}
	return out
}

func causeOf(c *verify.CauseReport) causeResult {
	out := causeResult{
		Kind: c.Cause.Kind, Key: c.Cause.Key(), Rules: rulesOf(c.Cause.Rules), Violated: []violatedResult{},
		Disagreements: c.Disagreements, First: c.First,
	}
	for _, v := range c.Cause.Violated {
		out.Violated = append(out.Violated, violatedResult{keyOf(v.Declaration), v.Kind})
	}
	if ce := c.Counterexample; ce != nil {
		out.Counterexample = counterexampleOf(ce)
	}
	return out
}

func counterexampleOf(ce *verify.Counterexample) *counterexampleResult {
	out := &counterexampleResult{
		Pair: ce.Pair, Reference: verdictWord(len(ce.Reference) > 0 || len(ce.Companions) > 0, false),
		Violations: []violationResult{}, Companions: ce.Companions,
		CEL: verdictWord(ce.Denied, ce.EvaluationError), Errors: append([]string{}, ce.Errors...), Rules: rulesOf(ce.Rules),
		Old: replayValue{ce.Old}, New: replayValue{ce.New},
	}
	for _, v := range ce.Reference {
		out.Violations = append(out.Violations, violationResult{v.Path, v.Declaration, v.Kind, v.Detail})
	}
	return out
}

// verdictWord is the word of Counterexample.YAML for a verdict.
func verdictWord(denied, evalError bool) string {
	switch {
	case evalError:
		return "evaluation error"
	case denied:
		return "denied"
	}
	return "allowed"
}

func keyOf(d verify.Declaration) declarationKey {
	return declarationKey{d.Path, d.Extension, d.Value}
}

func rulesOf(rules []verify.InvolvedRule) []ruleResult {
	out := []ruleResult{}
	for _, r := range rules {
		out = append(out, ruleResult{r.Path, r.Rule})
	}
	return out
}

// replayValue is an object of a pair, written so that it can be sent
// again as it was: a float with an integral value keeps its ".0", which
// the apiserver's CEL does not take for an integer (docs/semantics.md 2.4).
type replayValue struct{ v interface{} }

func (r replayValue) MarshalJSON() ([]byte, error) {
	switch x := r.v.(type) {
	case map[string]interface{}:
		m := make(map[string]replayValue, len(x))
		for k, e := range x {
			m[k] = replayValue{e}
		}
		return marshalJSON(m)
	case []interface{}:
		l := make([]replayValue, len(x))
		for i, e := range x {
			l[i] = replayValue{e}
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

// writeDocument writes the document as indented JSON, or as YAML with the
// same fields in the same order.
func writeDocument(w io.Writer, d *verifyDocument, format string) error {
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
// keeping flow style for empty collections.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) == 0 {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}
