package verify

import (
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/internal/kube"
	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
	"github.com/mut2cel/mut2cel/verify/reference"
	"github.com/mut2cel/mut2cel/verify/shrink"
)

// Counterexample is one update on which the rules under test and the
// reference checker disagree, shrunk.
type Counterexample struct {
	CRD, Version string
	// Pair is the number (from 1) of the generated pair it was shrunk from.
	Pair int
	// Old and New are the objects as a client sends them: create Old, then
	// update it to New.
	Old, New map[string]interface{}
	// Reference lists the violations of the declarations; none means the
	// update is allowed.
	Reference []reference.Violation
	// Companions are the messages of the declared CRD's own rules that
	// deny the update: the reference denies it too.
	Companions []string
	// Denied and Errors are the verdict of the rules under test and their
	// messages.
	Denied bool
	Errors []string
	// EvaluationError is set when a rule failed to evaluate rather than
	// returned a verdict.
	EvaluationError bool
	// Rules are the rules involved: those that denied the update, or, when
	// none did, those on the schema path of a violated declaration.
	Rules []InvolvedRule
}

// InvolvedRule is one rule of the CRD under test.
type InvolvedRule struct {
	Path string // schema path of the node holding it
	Rule string
}

func (r *versionRun) counterexample(pair int, old, new map[string]interface{}, v verdicts, cause string) (*Counterexample, error) {
	// The shrunk pair stays valid, fails the same way and keeps its cause.
	want := v
	old, new = shrink.Pair(old, new, func(o, n map[string]interface{}) bool {
		w, err := r.compare(o, n)
		return err == nil && sameDisagreement(w, want) && r.cause(o, n, w).Key() == cause
	})
	v, err := r.compare(old, new)
	if err != nil {
		return nil, err
	}
	ce := &Counterexample{
		CRD: r.crd, Version: r.version, Pair: pair, Old: old, New: new,
		Reference: v.violations, Companions: v.companions, Denied: v.denied, Errors: v.detail, EvaluationError: v.outcome == evalFailed,
	}
	ce.Rules = r.involved(old, new, v)
	return ce, nil
}

// ruleRef is one rule of the schema under test, with a validator of a
// copy of the schema that holds this rule alone.
type ruleRef struct {
	path  schemapath.Path
	rule  apiextensionsv1.ValidationRule
	alone *kube.RuleValidator
}

// involved names the rules behind a verdict: each rule that, alone,
// denies the stored pair; if none does, the rules on the schema line
// (ancestors and descendants) of the violated declarations.
func (r *versionRun) involved(old, new map[string]interface{}, v verdicts) []InvolvedRule {
	out := r.denyingRules(old, new)
	if len(out) > 0 {
		return out
	}
	decls := map[string]bool{}
	for _, viol := range v.violations {
		decls[viol.Declaration] = true
	}
	for _, rr := range r.rules {
		for _, d := range r.checker.DeclaredPaths() {
			if decls[d.String()] && schemapath.OnLine(rr.path, d) {
				out = append(out, InvolvedRule{Path: rr.path.String(), Rule: rr.rule.Rule})
				break
			}
		}
	}
	return out
}

// denyingRules lists the rules that, each alone, deny the raw pair once
// stored.
func (r *versionRun) denyingRules(old, new map[string]interface{}) []InvolvedRule {
	if r.rules == nil {
		r.rules = rulesOf(r.s)
	}
	storedOld, storedNew, err := r.storedPair(old, new)
	if err != nil {
		return nil
	}
	var out []InvolvedRule
	for _, rr := range r.rules {
		if len(rr.alone.Validate(storedNew, storedOld)) > 0 {
			out = append(out, InvolvedRule{Path: rr.path.String(), Rule: rr.rule.Rule})
		}
	}
	return out
}

// denyingCompanions lists the declared CRD's own rules that, each alone,
// deny the raw pair once stored.
func (r *versionRun) denyingCompanions(old, new map[string]interface{}) []InvolvedRule {
	storedOld, storedNew, err := r.storedPair(old, new)
	if err != nil {
		return nil
	}
	return r.companions.denying(storedOld, storedNew)
}

// sameDisagreement reports whether a shrunk pair still fails the same way.
func sameDisagreement(a, b verdicts) bool {
	return a.outcome == b.outcome && a.denied == b.denied && (len(a.violations) > 0) == (len(b.violations) > 0) &&
		(len(a.companions) > 0) == (len(b.companions) > 0)
}

// rulesOf lists every rule of s in walk order, each with its own
// validator.
func rulesOf(s *schema.Structural) []*ruleRef {
	var out []*ruleRef
	for _, path := range ruleHosts(s) {
		host := schemapath.At(s, path)
		for i := range host.XValidations {
			alone := s.DeepCopy()
			stripRules(alone)
			setRules(alone, path, host.XValidations[i:i+1])
			out = append(out, &ruleRef{path: path, rule: host.XValidations[i], alone: kube.NewRuleValidator(alone)})
		}
	}
	return out
}

// ruleHosts lists the paths of the nodes that hold rules, once each.
func ruleHosts(s *schema.Structural) []schemapath.Path {
	var out []schemapath.Path
	seen := map[string]bool{}
	for _, p := range schemapath.RuleTargets(s) {
		k := p.String()
		if h := schemapath.At(s, p); h != nil && len(h.XValidations) > 0 && !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// setRules replaces the rules of the node at path, which exists. Property
// schemas are map values, so each one on the way is written back.
func setRules(s *schema.Structural, path schemapath.Path, rules apiextensionsv1.ValidationRules) {
	if len(path) == 0 {
		s.XValidations = rules
		return
	}
	switch st := path[0]; st.Kind {
	case schemapath.Property:
		p := s.Properties[st.Name]
		setRules(&p, path[1:], rules)
		s.Properties[st.Name] = p
	case schemapath.Items:
		setRules(s.Items, path[1:], rules)
	case schemapath.Values:
		setRules(s.AdditionalProperties.Structural, path[1:], rules)
	}
}

func stripRules(s *schema.Structural) {
	eachNode(s, func(n *schema.Structural) { n.XValidations = nil })
}

// eachNode calls f on s and on every node below it, in place: a property,
// held by value in its parent's map, is written back after f.
func eachNode(s *schema.Structural, f func(*schema.Structural)) {
	f(s)
	for name := range s.Properties {
		p := s.Properties[name]
		eachNode(&p, f)
		s.Properties[name] = p
	}
	if s.Items != nil {
		eachNode(s.Items, f)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		eachNode(s.AdditionalProperties.Structural, f)
	}
}

// messages of the reference, one line each, for reports.
func violationLines(vs []reference.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.TrimSpace(v.String())
	}
	return out
}
