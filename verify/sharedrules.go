package verify

import (
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/mut2cel/mut2cel/verify/internal/schemapath"
)

// Most rules of a real CRD under test are its own hand-written ones,
// kept by the translation beside the generated rules, and they are the
// companions too: judging a pair evaluated them twice, once on each side,
// and on the 1.4 MB kueue Workload that was most of the time of a pair.
//
// A rule that both sides hold at the same node of the same schema gives
// the same verdict on both sides: the objects are the same, and so are
// the CEL types the apiserver derives from the schema. Call such rules
// shared, and the others of the CRD under test its own. When every
// companion is shared, the CRD under test denies exactly when its own
// rules or the shared ones deny, and the reference when the checker or
// the shared ones deny. So when its own rules and the checker agree, the
// verdicts agree whatever the shared rules say, and they need not be
// evaluated. Only pairs where they differ are judged whole (compare).
//
// The one behaviour of the apiserver this leaves out of agreeing pairs is
// the runtime cost budget all rules of one object share (10M): the
// objects verify generates spend a tiny part of it.

// ownRules returns a copy of tested without the rules it shares with
// declared, the schema of the companions. ok is false when the split is
// not exact: the schemas differ otherwise than by rules and the size
// bounds translate adds, or a companion is not among tested's rules.
func ownRules(declared, tested *schema.Structural) (own *schema.Structural, ok bool) {
	a, b := declared.DeepCopy(), tested.DeepCopy()
	withoutRulesAndBounds(a)
	withoutRulesAndBounds(b)
	if !reflect.DeepEqual(a, b) {
		return nil, false
	}
	own = tested.DeepCopy()
	for _, path := range ruleHosts(declared) {
		host := schemapath.At(own, path)
		if host == nil {
			return nil, false
		}
		left := append(apiextensionsv1.ValidationRules{}, host.XValidations...)
		for _, rule := range schemapath.At(declared, path).XValidations {
			i := indexOfRule(left, rule)
			if i < 0 {
				return nil, false
			}
			left = append(left[:i], left[i+1:]...)
		}
		setRules(own, path, left)
	}
	return own, true
}

func indexOfRule(rules apiextensionsv1.ValidationRules, rule apiextensionsv1.ValidationRule) int {
	for i := range rules {
		if reflect.DeepEqual(rules[i], rule) {
			return i
		}
	}
	return -1
}

// withoutRulesAndBounds removes from s, in place, what a translation may
// add: rules and the maxLength, maxItems and maxProperties bounds, which
// change no CEL value and no verdict.
func withoutRulesAndBounds(s *schema.Structural) {
	eachNode(s, func(n *schema.Structural) {
		n.XValidations = nil
		if vv := n.ValueValidation; vv != nil {
			vv.MaxLength, vv.MaxItems, vv.MaxProperties = nil, nil, nil
			if reflect.DeepEqual(*vv, schema.ValueValidation{}) {
				n.ValueValidation = nil
			}
		}
	})
}
