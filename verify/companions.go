package verify

import (
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/internal/kube"
)

// Companions are the rules of the declared CRD: the user's own
// x-kubernetes-validations, written beside the declarations and kept by
// any translation. The apiserver denies an update when any rule denies it,
// so the reference verdict is composed the same way: the checker allows
// the update and the companions allow it. Which rules are companions is
// the caller's choice of declared document (for a CRD that translate
// rewrote, the caller passes it with the generated rules set aside); the
// checker never reads them.
//
// Companions only ever add denials to the reference, so they cannot hide
// a rule the declarations need: where the checker denies, the reference
// denies whatever the companions say, and the CRD under test must deny
// too.
type companions struct {
	s     *schema.Structural
	v     *kube.RuleValidator
	rules []*ruleRef // built on the first disagreement they cause
}

// newCompanions returns the companions of one declared version, raw its
// openAPIV3Schema; nil when it has no rules.
func newCompanions(raw map[string]interface{}, at string) (*companions, error) {
	if raw == nil {
		return nil, nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: the rules of the declared CRD: %w", at, err)
	}
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(data, &props); err != nil {
		return nil, fmt.Errorf("%s: the rules of the declared CRD: %w", at, err)
	}
	s, err := kube.Structural(&props)
	if err != nil {
		return nil, fmt.Errorf("%s: the rules of the declared CRD: %w", at, err)
	}
	if len(ruleHosts(s)) == 0 {
		return nil, nil
	}
	return &companions{s: s, v: kube.NewRuleValidator(s)}, nil
}

// judge returns the messages of the companions that deny the stored pair,
// sorted; none when c is nil.
func (c *companions) judge(storedOld, storedNew map[string]interface{}) []string {
	if c == nil {
		return nil
	}
	return SortedMessages(c.v.Validate(storedNew, storedOld))
}

// denying lists the companions that, each alone, deny the stored pair.
func (c *companions) denying(storedOld, storedNew map[string]interface{}) []InvolvedRule {
	if c == nil {
		return nil
	}
	if c.rules == nil {
		c.rules = rulesOf(c.s)
	}
	var out []InvolvedRule
	for _, rr := range c.rules {
		if len(rr.alone.Validate(storedNew, storedOld)) > 0 {
			out = append(out, InvolvedRule{Path: rr.path.String(), Rule: rr.rule.Rule})
		}
	}
	return out
}

// unexplainedByCompanions returns the evaluation errors of errs that no
// companion explains. A rule of the CRD under test that fails to evaluate
// where a companion with the same text denies the pair (returns false or
// fails too) is the user's rule failing, not a disagreement: the
// apiserver denies the update either way. Which of a failure and a false
// a rule gives can depend on the order in which CEL compares object
// fields, which Go randomizes, so the two sides are matched by the field
// and the rule's text (its message, or the rule when it has none), not by
// the whole error.
func unexplainedByCompanions(errs, companions []string) []string {
	var out []string
	for _, e := range errs {
		explained := false
		field, _, _ := strings.Cut(e, ": ")
		_, rule, ok := strings.Cut(e, " evaluating rule: ")
		for _, c := range companions {
			cField, _, _ := strings.Cut(c, ": ")
			switch {
			case c == e:
				explained = true
			case ok && cField == field && (strings.HasSuffix(c, ": "+rule) || strings.HasSuffix(c, " evaluating rule: "+rule)):
				explained = true
			}
		}
		if !explained {
			out = append(out, e)
		}
	}
	return out
}
